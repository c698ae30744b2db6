import { assertEquals, assertMatch } from "../assert.ts";
import { SignJWT } from "jose";
import { ManualClock } from "../../lib/clock.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

/** `token` with its payload replaced by `claims`, the header and signature kept. */
function withClaims(token: string, claims: Record<string, unknown>): string {
  const [header, , signature] = token.split(".");
  return `${header}.${base64url(JSON.stringify(claims))}.${signature}`;
}

function base64url(text: string): string {
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function claimsOf(token: string): Record<string, unknown> {
  const part = token.split(".")[1].replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(atob(part.padEnd(Math.ceil(part.length / 4) * 4, "=")));
}

Deno.test("DNS API: login issues a JWT that authorizes requests until it expires", async () => {
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({ clock });
  const login = await call(`${t.dnsApi}/api/v1/auth/login`, { method: "POST", json: ADMIN });
  assertEquals(login.status, 200);
  const token = login.body.token as string;
  assertMatch(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assertMatch(login.body.expires_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const expiresAt = Date.parse(login.body.expires_at as string);
  assertEquals(expiresAt - clock.now() <= 3600_000, true);

  const probe = `${t.dnsApi}/api/v1/users`;
  const as = (bearer: string) => call(probe, { headers: { Authorization: `Bearer ${bearer}` } });
  const authorized = await as(token);
  assertEquals(authorized.status, 200);
  assertEquals((authorized.body.users as { username: string }[]).map((u) => u.username), ["admin"]);
  assertEquals((await call(probe)).status, 401);

  // Forgeries, sent while the genuine token is still valid: only the signature can refuse them.
  clock.set(expiresAt - 1);
  assertEquals((await as(token)).status, 200, "valid a millisecond before it expires");
  const claims = claimsOf(token);
  const [header, payload, signature] = token.split(".");
  const flipped = signature[10] === "A" ? "B" : "A";
  const forgeries: Record<string, string> = {
    "another signature": `${header}.${payload}.${signature.slice(0, 10)}${flipped}${
      signature.slice(11)
    }`,
    "a longer life, same signature": withClaims(token, {
      ...claims,
      exp: Number(claims.exp) + 86400,
    }),
    "another subject, same signature": withClaims(token, { ...claims, sub: crypto.randomUUID() }),
    "signed with another key": await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(crypto.getRandomValues(new Uint8Array(32))),
    "no signature (alg none)": `${base64url('{"alg":"none","typ":"JWT"}')}.${payload}.`,
  };
  for (const [name, forged] of Object.entries(forgeries)) {
    const res = await as(forged);
    assertEquals(res.status, 401, name);
    assertEquals(res.body, { error: "Invalid token", status: 401 }, name);
  }

  clock.set(expiresAt);
  const expired = await as(token);
  assertEquals(expired.status, 401);
  assertEquals(expired.body, { error: "Token has expired", status: 401 });
});

Deno.test("DNS API: the tunnel API's cookie and tokens are not accepted there", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const svc = await t.createToken("dns-probe");
  assertMatch(svc, /^svc_/);
  // Both work where they belong, so a 401 below is the DNS API refusing them.
  const own = `${t.admin}/api/v1/auth/session`;
  assertEquals((await call(own, { headers: { cookie } })).status, 200);
  assertEquals((await call(own, { headers: { Authorization: `Bearer ${svc}` } })).status, 200);
  const probe = `${t.dnsApi}/api/v1/users`;
  assertEquals((await call(probe, { headers: { cookie } })).status, 401, "cookie");
  const bearer = await call(probe, { headers: { Authorization: `Bearer ${svc}` } });
  assertEquals(bearer.status, 401, "svc_ token");
  assertEquals(bearer.body, { error: "Invalid token", status: 401 });
});

Deno.test("DNS API: users are created by administrators only and never returned with a password", async () => {
  await using t = await startTestServer();
  const login = await call(`${t.dnsApi}/api/v1/auth/login`, { method: "POST", json: ADMIN });
  const auth = { Authorization: `Bearer ${login.body.token}` };
  const created = await call(`${t.dnsApi}/api/v1/users`, {
    method: "POST",
    headers: auth,
    json: {
      username: "olga",
      email: "olga@example.org",
      password: "olga-password-123",
      role: "operator",
    },
  });
  assertEquals(created.status, 201);
  assertEquals(created.body.role, "operator");
  assertEquals("password" in created.body, false);
  const dup = await call(`${t.dnsApi}/api/v1/users`, {
    method: "POST",
    headers: auth,
    json: { username: "OLGA", email: "", password: "another-password-1", role: "viewer" },
  });
  assertEquals(dup.status, 409);
  const olga = await call(`${t.dnsApi}/api/v1/auth/login`, {
    method: "POST",
    json: { username: "olga", password: "olga-password-123" },
  });
  const asOlga = await call(`${t.dnsApi}/api/v1/users`, {
    headers: { Authorization: `Bearer ${olga.body.token}` },
  });
  assertEquals(asOlga.status, 403);
  const listed = await call(`${t.dnsApi}/api/v1/users`, { headers: auth });
  assertEquals(JSON.stringify(listed.body).includes("olga-password-123"), false);
  assertEquals(JSON.stringify(listed.body).includes("scrypt"), false);
});
