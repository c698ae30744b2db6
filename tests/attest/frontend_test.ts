import { assert, assertEquals } from "../assert.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { resolveInside } from "../../server/http/static_files.ts";

const SECRET = "TOP-SECRET-CONTENT";

// The secrets sit next to the served folder, where each traversal path below points: a listener
// that let ".." (in any spelling) or a symlink out would serve them.
Deno.test("the attestation listener serves the configured frontend folder and nothing outside it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/site/js`, { recursive: true });
    await Deno.mkdir(`${dir}/site-private`);
    await Deno.writeTextFile(`${dir}/site/index.html`, "<h1>front</h1>");
    await Deno.writeTextFile(`${dir}/site/js/app.js`, "console.log(1)");
    await Deno.writeTextFile(`${dir}/secret.txt`, SECRET);
    // A sibling whose name starts with the served folder's: a prefix test without "/" lets it out.
    await Deno.writeTextFile(`${dir}/site-private/secret.txt`, SECRET);
    await Deno.symlink(`${dir}/secret.txt`, `${dir}/site/link.txt`);
    await using t = await startTestServer({ env: { PALISADE_ATTEST_FRONTEND: `${dir}/site` } });
    const get = async (path: string) => {
      const res = await fetch(`${t.attest}${path}`);
      return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
    };
    assertEquals((await get("/")).text, "<h1>front</h1>");
    const js = await get("/js/app.js");
    assertEquals(js.status, 200);
    assert(js.type?.startsWith("text/javascript"));
    assertEquals((await get("/missing.js")).status, 404);
    for (
      const path of [
        "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/js/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/js/..%2f..%2fsecret.txt",
        "/..%2fsite-private%2fsecret.txt",
        "/link.txt",
      ]
    ) {
      const res = await get(path);
      assertEquals(res.status, 404, path);
      assert(!res.text.includes(SECRET), path);
    }
    assertEquals(await resolveInside(`${dir}/site`, "js/../../secret.txt"), null);
    assertEquals(await resolveInside(`${dir}/site`, "../site-private/secret.txt"), null);
    // fetch() normalizes "/../" away before sending; a raw request line reaches the server as written.
    const { hostname, port } = new URL(t.attest);
    for (
      const path of [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/js/..%2f..%2fsecret.txt",
        "/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f" +
        `${dir.replaceAll("/", "%2f")}%2fsecret.txt`,
        "/..%5csecret.txt",
      ]
    ) {
      const conn = await Deno.connect({ hostname, port: Number(port) });
      await conn.write(
        new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
      assert(raw.startsWith("HTTP/1.1 404"), `${path}: ${raw.split("\r\n")[0]}`);
      assert(!raw.includes(SECRET), path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the attestation API answers CORS preflights for the configured origins only", async () => {
  await using t = await startTestServer({
    env: { PALISADE_ATTEST_ALLOWED_ORIGINS: "https://shop.example" },
  });
  const preflight = (origin: string) =>
    fetch(`${t.attest}/hb`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
  const ok = await preflight("https://shop.example");
  assertEquals(ok.status, 204);
  assertEquals(ok.headers.get("access-control-allow-origin"), "https://shop.example");
  assert(ok.headers.get("access-control-allow-headers")?.toLowerCase().includes("content-type"));
  const other = await preflight("https://evil.example");
  assertEquals(other.headers.get("access-control-allow-origin"), null);
});
