/**
 * The login throttle over real listeners (issue 19, defect 5). Every request
 * reaches the server from 127.0.0.1, so per-address behaviour is driven
 * through `X-Forwarded-For` with 127.0.0.1 configured as a trusted proxy.
 */
import { assert, assertEquals } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { ADMIN, call, startTestServer, type TestServer } from "../helpers/test_server.ts";

const ATTACKER = "203.0.113.7";
const ADMIN_HOME = "198.51.100.20";
const BEHIND_PROXY = { PALISADE_TRUSTED_PROXIES: "127.0.0.1" };

function forwarded(from: string | null): Record<string, string> {
  return from === null ? {} : { "X-Forwarded-For": from };
}

/** `POST /api/v1/auth/login` on the admin listener, forwarded for `from`. */
function apiLogin(t: TestServer, from: string | null, password: string, username = "admin") {
  return call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    headers: forwarded(from),
    json: { username, password },
  });
}

/** `POST /api/v1/auth/login` on the DNS-API listener. */
function dnsLogin(t: TestServer, from: string | null, password: string, username = "admin") {
  return call(`${t.dnsApi}/api/v1/auth/login`, {
    method: "POST",
    headers: forwarded(from),
    json: { username, password },
  });
}

/** The dashboard's sign-in form; its status (303 on success). */
async function formLogin(t: TestServer, from: string | null, password: string) {
  const res = await fetch(`${t.admin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...forwarded(from) },
    body: new URLSearchParams({ username: "admin", password, next: "/" }),
  });
  await res.body?.cancel();
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

/** The messages of the audit records of `eventType`, newest first. */
async function audited(t: TestServer, eventType: string): Promise<string[]> {
  return (await t.services.audit.list({ event_type: eventType, limit: 50, offset: 0 })).records
    .map((r) => r.message);
}

Deno.test("the administrator logs in from another address while one address hammers the username", async () => {
  // Time stands still, so the attacker's wait cannot run out during the test.
  await using t = await startTestServer({ clock: new ManualClock(Date.now()), env: BEHIND_PROXY });
  const statuses = [];
  for (let i = 1; i <= 8; i++) statuses.push((await apiLogin(t, ATTACKER, `guess-${i}`)).status);
  assertEquals(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
  assertEquals((await formLogin(t, ATTACKER, "form-guess")).status, 429);

  assertEquals((await apiLogin(t, ADMIN_HOME, ADMIN.password)).status, 200);
  assertEquals((await dnsLogin(t, ADMIN_HOME, ADMIN.password)).status, 200);
  assertEquals((await formLogin(t, ADMIN_HOME, ADMIN.password)).status, 303);
  // The attacker's wait outlives the rightful user's logins; the right password does not lift it.
  assertEquals((await apiLogin(t, ATTACKER, ADMIN.password)).status, 429);
});

Deno.test("an attacking address gets 429 with a Retry-After that doubles with each further failure, up to the cap", async () => {
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({
    clock,
    env: { ...BEHIND_PROXY, PALISADE_LOGIN_BACKOFF_MAX_MS: "4000" },
  });
  for (let i = 1; i <= 5; i++) {
    assertEquals((await apiLogin(t, ATTACKER, `guess-${i}`)).status, 401);
  }
  const waits: string[] = [];
  for (const advanceMs of [1000, 2000, 4000, 4000]) {
    const refused = await apiLogin(t, ATTACKER, "while waiting");
    assertEquals(refused.status, 429);
    assertEquals(refused.body.status, 429);
    waits.push(refused.headers.get("retry-after")!);
    clock.advance(advanceMs - 1);
    assertEquals((await apiLogin(t, ATTACKER, "one ms early")).status, 429);
    clock.advance(1);
    assertEquals((await apiLogin(t, ATTACKER, "after the wait")).status, 401);
  }
  assertEquals(waits, ["1", "2", "4", "4"]);
  // The same wait holds on the form (the failures are counted in the store), not on the DNS API.
  assertEquals((await dnsLogin(t, ATTACKER, "elsewhere")).status, 401);
  const form = await formLogin(t, ATTACKER, "elsewhere");
  assertEquals([form.status, form.retryAfter], [429, "4"]);
});

Deno.test("one address trying many usernames waits once past its own limit", async () => {
  await using t = await startTestServer({
    env: { ...BEHIND_PROXY, PALISADE_LOGIN_ADDR_FAILURES: "3" },
  });
  for (const name of ["alice", "bob", "carol"]) {
    assertEquals((await apiLogin(t, ATTACKER, "x", name)).status, 401, name);
  }
  assertEquals((await apiLogin(t, ATTACKER, "x", "dave")).status, 429);
  assertEquals((await apiLogin(t, ATTACKER, ADMIN.password)).status, 429);
  assertEquals((await apiLogin(t, ADMIN_HOME, ADMIN.password)).status, 200);
});

Deno.test("a username under attack from many addresses is slowed down, never refused", async () => {
  await using t = await startTestServer({
    env: {
      ...BEHIND_PROXY,
      PALISADE_LOGIN_SLOWDOWN_AFTER: "4",
      // Longer than a password check takes on a busy machine, so the delay is told apart.
      PALISADE_LOGIN_SLOWDOWN_STEP_MS: "1500",
      PALISADE_LOGIN_SLOWDOWN_MAX_MS: "1500",
    },
  });
  // One failure from each of six addresses: no address reaches its own limit, the username passes 4.
  for (let i = 1; i <= 6; i++) {
    assertEquals((await apiLogin(t, `192.0.2.${i}`, `guess-${i}`)).status, 401, `address ${i}`);
  }
  const started = performance.now();
  const login = await apiLogin(t, ADMIN_HOME, ADMIN.password);
  const elapsed = performance.now() - started;
  assertEquals(login.status, 200);
  assert(elapsed >= 1500, `the login took ${elapsed} ms, less than the 1500 ms slow-down`);
  assertEquals((await dnsLogin(t, "192.0.2.99", ADMIN.password)).status, 200);
});

Deno.test("X-Forwarded-For names the client only when the peer is a trusted proxy", async () => {
  const loginFrom = async (env: Record<string, string>, header: string) => {
    await using t = await startTestServer({ env });
    assertEquals((await apiLogin(t, header, ADMIN.password)).status, 200);
    assertEquals((await apiLogin(t, header, "wrong")).status, 401);
    const [login] = await audited(t, "auth.login");
    const [failed] = await audited(t, "auth.login_failed");
    return [login.replace("Logged in from ", ""), failed.replace(/.* from /, "")];
  };
  const chain = `${ATTACKER}, 10.1.2.3`;
  // Trusted: the right-most address that is not itself a trusted proxy.
  const trusted = { PALISADE_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" };
  assertEquals(await loginFrom(trusted, chain), [ATTACKER, ATTACKER]);
  // An address the client wrote left of what the proxy appended is not believed.
  assertEquals(await loginFrom(BEHIND_PROXY, `${ATTACKER}, ${ADMIN_HOME}`), [
    ADMIN_HOME,
    ADMIN_HOME,
  ]);
  // No trusted proxy, or one that is not the peer: the header is ignored.
  assertEquals(await loginFrom({}, chain), ["127.0.0.1", "127.0.0.1"]);
  assertEquals(await loginFrom({ PALISADE_TRUSTED_PROXIES: "10.0.0.0/8" }, chain), [
    "127.0.0.1",
    "127.0.0.1",
  ]);
});

Deno.test("without a trusted proxy a forged X-Forwarded-For neither escapes nor shifts the limit", async () => {
  await using t = await startTestServer();
  for (let i = 1; i <= 5; i++) {
    assertEquals((await apiLogin(t, `192.0.2.${i}`, `guess-${i}`)).status, 401, `attempt ${i}`);
  }
  assertEquals((await apiLogin(t, ADMIN_HOME, ADMIN.password)).status, 429);
  assertEquals((await formLogin(t, null, ADMIN.password)).status, 429);
});

Deno.test("the DNS API's login has its own throttle: exhausting either leaves the other open", async () => {
  await using t = await startTestServer({ clock: new ManualClock(Date.now()), env: BEHIND_PROXY });
  // Exhaust the DNS API's throttle for the pair (address, admin).
  const dns = [];
  for (let i = 1; i <= 7; i++) dns.push((await dnsLogin(t, ATTACKER, `dns-${i}`)).status);
  assertEquals(dns, [401, 401, 401, 401, 401, 429, 429]);
  const refused = await dnsLogin(t, ATTACKER, ADMIN.password);
  assertEquals([refused.status, refused.headers.get("retry-after")], [429, "1"]);
  // The admin listener's logins from that very address are not held back.
  assertEquals((await apiLogin(t, ATTACKER, ADMIN.password)).status, 200);
  assertEquals((await formLogin(t, ATTACKER, ADMIN.password)).status, 303);

  // The reverse: a second address exhausts the admin throttle; the DNS API still checks passwords.
  const admin = [];
  for (let i = 1; i <= 6; i++) admin.push((await apiLogin(t, ADMIN_HOME, `guess-${i}`)).status);
  assertEquals(admin, [401, 401, 401, 401, 401, 429]);
  assertEquals((await dnsLogin(t, ADMIN_HOME, "still checked")).status, 401);
  assertEquals((await dnsLogin(t, ADMIN_HOME, ADMIN.password)).status, 200);
});

Deno.test("the DNS API's throttle also counts per address across usernames", async () => {
  await using t = await startTestServer({
    clock: new ManualClock(Date.now()),
    env: { ...BEHIND_PROXY, PALISADE_LOGIN_ADDR_FAILURES: "3" },
  });
  for (const name of ["alice", "bob", "carol"]) {
    assertEquals((await dnsLogin(t, ATTACKER, "x", name)).status, 401, name);
  }
  const refused = await dnsLogin(t, ATTACKER, "x", "dave");
  assertEquals(refused.status, 429);
  assert(Number(refused.headers.get("retry-after")) >= 1);
  assertEquals((await dnsLogin(t, ADMIN_HOME, ADMIN.password)).status, 200);
  assertEquals((await apiLogin(t, ATTACKER, ADMIN.password)).status, 200);
});
