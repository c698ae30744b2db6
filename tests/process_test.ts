import { assert, assertEquals, assertMatch } from "./assert.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

function palisade(env: Record<string, string>, args: string[] = [], signal?: AbortSignal) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    signal,
    env: { ...env, NO_COLOR: "1" },
    clearEnv: false,
    stdout: "piped",
    stderr: "piped",
  });
}

Deno.test("main.ts exits non-zero with one line naming the variable when configuration is invalid", async () => {
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{ PALISADE_ADMIN_LISTEN: "localhost" }, [], /PALISADE_ADMIN_LISTEN: expected "host:port"/],
    [{ PALISADE_HOST_DRIVER: "bsd" }, [], /PALISADE_HOST_DRIVER: expected auto, linux or none/],
    [{ PALISADE_LOG: "loud" }, [], /PALISADE_LOG: expected one of/],
    [{}, ["--dns-listen", "127.0.0.1:99999"], /--dns-listen: port 99999 is out of range/],
    [{}, ["--bogus=1"], /--bogus: unknown option/],
  ];
  for (const [env, args, re] of cases) {
    const out = await palisade({ PALISADE_DATA: "/nonexistent-never-created", ...env }, args)
      .output();
    const stderr = new TextDecoder().decode(out.stderr).trim();
    assert(out.code !== 0, `exit code for ${JSON.stringify(env)} ${args}`);
    assertEquals(stderr.split("\n").length, 1, stderr);
    assertMatch(stderr, re);
  }
});

Deno.test({
  name:
    "main.ts prints each listener's bound address, creates the first administrator once, and exits 0 on SIGTERM",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "palisade-main-" });
    const env = {
      PALISADE_DATA: dir,
      PALISADE_ADMIN_LISTEN: "127.0.0.1:0",
      PALISADE_ATTEST_LISTEN: "127.0.0.1:0",
      PALISADE_DNS_API_LISTEN: "127.0.0.1:0",
      PALISADE_DNS_LISTEN: "127.0.0.1:0",
      PALISADE_HOST_DRIVER: "none",
    };
    try {
      for (const run of [1, 2]) {
        const child = palisade(env).spawn();
        const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
        let out = "";
        const deadline = Date.now() + 20_000;
        while (!/dns listening on/.test(out) && Date.now() < deadline) {
          const { value, done } = await reader.read();
          if (done) break;
          out += value;
        }
        for (const name of ["admin", "attestation", "dns-api"]) {
          assertMatch(out, new RegExp(`${name} listening on http://127\\.0\\.0\\.1:[1-9]\\d*`));
        }
        assertMatch(out, /dns listening on 127\.0\.0\.1:[1-9]\d* \(udp\+tcp\)/);
        const admin = /admin listening on (http:\/\/\S+)/.exec(out)![1];
        const password = /created with password: (\S+)/.exec(out)?.[1];
        if (run === 1) {
          assert(
            password && password.length >= 20,
            "a generated password is printed on first start",
          );
          const login = await fetch(`${admin}/api/v1/auth/login`, {
            method: "POST",
            body: JSON.stringify({ username: "admin", password }),
            headers: { "Content-Type": "application/json" },
          });
          assertEquals(login.status, 200);
          await login.body?.cancel();
        } else {
          assertEquals(password, undefined, "no second administrator on restart");
        }
        child.kill("SIGTERM");
        const status = await child.status;
        reader.releaseLock();
        await child.stdout.cancel().catch(() => {});
        const stderr = await new Response(child.stderr).text();
        assertEquals(status.code, 0, stderr);
        assert(!stderr.includes(password ?? "\0"), "the password never reaches the log");
        assertMatch(stderr, /"msg":"stopped"/);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const FREE_LISTENERS = {
  PALISADE_ADMIN_LISTEN: "127.0.0.1:0",
  PALISADE_ATTEST_LISTEN: "127.0.0.1:0",
  PALISADE_DNS_API_LISTEN: "127.0.0.1:0",
  PALISADE_DNS_LISTEN: "127.0.0.1:0",
  PALISADE_HOST_DRIVER: "none",
};

Deno.test("main.ts with an unreachable PALISADE_DATABASE_URL exits naming the store without its password, and creates no SQLite file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "palisade-main-pg-" });
  try {
    for (
      const [env, args] of [
        [{ PALISADE_DATABASE_URL: "postgres://palisade:hunter2-secret@127.0.0.1:1/palisade" }, []],
        [{}, ["--database-url", "postgresql://127.0.0.1:1/palisade"]],
      ] as [Record<string, string>, string[]][]
    ) {
      // Listeners on free ports and a bounded run: a server that starts anyway is killed, not awaited.
      const out = await palisade(
        { PALISADE_DATA: `${dir}/data`, ...FREE_LISTENERS, ...env },
        args,
        AbortSignal.timeout(20_000),
      ).output();
      const stderr = new TextDecoder().decode(out.stderr).trim();
      assert(out.code !== 0, `exit code with ${JSON.stringify(env)} ${args}`);
      assertEquals(out.code, 1);
      assertMatch(stderr, /cannot open the store at "postgres:\/\/127\.0\.0\.1:1\/palisade"/);
      assert(!stderr.includes("hunter2-secret"), "the URL's password is not printed");
      assertEquals(await Deno.stat(`${dir}/data`).then(() => true, () => false), false);
    }
    const bad = await palisade({
      PALISADE_DATA: `${dir}/data`,
      PALISADE_DATABASE_URL: "mysql://u:pw-secret@h/db",
    }).output();
    const badErr = new TextDecoder().decode(bad.stderr);
    assertEquals(bad.code, 2);
    assertMatch(badErr, /PALISADE_DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL/);
    assert(!badErr.includes("pw-secret"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
