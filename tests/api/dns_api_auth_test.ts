import { assertEquals, assertMatch } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

Deno.test("DNS API: login issues a JWT that authorizes requests until it expires", async () => {
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({ clock });
  const login = await call(`${t.dnsApi}/api/v1/auth/login`, { method: "POST", json: ADMIN });
  assertEquals(login.status, 200);
  const token = login.body.token as string;
  assertMatch(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assertEquals(Date.parse(login.body.expires_at as string) - clock.now() <= 3600_000, true);
  assertMatch(login.body.expires_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  const probe = "/api/v1/users";
  const authorized = await call(`${t.dnsApi}${probe}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  assertEquals(authorized.status, 200);
  assertEquals((authorized.body.users as { username: string }[]).map((u) => u.username), ["admin"]);

  const none = await call(`${t.dnsApi}${probe}`);
  assertEquals(none.status, 401);

  clock.advance(3600_000 + 1000);
  const expired = await call(`${t.dnsApi}${probe}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  assertEquals(expired.status, 401);
  assertEquals(expired.body, { error: "Token has expired", status: 401 });

  const forged = await call(`${t.dnsApi}${probe}`, {
    headers: { Authorization: `Bearer ${token.slice(0, -2)}xx` },
  });
  assertEquals(forged.status, 401);
});

Deno.test("DNS API: the tunnel API's cookie and tokens are not accepted there", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const res = await call(`${t.dnsApi}/api/v1/users`, { headers: { cookie } });
  assertEquals(res.status, 401);
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
