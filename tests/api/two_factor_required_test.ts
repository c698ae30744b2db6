/**
 * Two-factor sign-in required per role (setting `auth.two_factor_roles`):
 * API logins of a user of that role without 2FA are refused with a clear
 * message; the dashboard signs them in to the Security page only, where they
 * enrol with a code from `oathtool`; API tokens are not affected.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

const OLGA = { username: "olga", password: "olga-password-123" };

Deno.test("a role that requires 2FA: API logins refused, dashboard sends to enrolment, tokens unaffected", async () => {
  if (!haveSystem("two-factor required by role", ["oathtool"])) return;
  await using t = await startTestServer();
  const token = await t.createToken("ci");
  const adminCookie = await t.login();
  await t.addUser("olga", "operator", OLGA.password);
  const put = (value: string) =>
    call(`${t.admin}/api/v1/system/settings`, {
      method: "PUT",
      headers: { cookie: adminCookie },
      json: { key: "auth.two_factor_roles", value },
    });
  assertEquals((await put("operator,root")).status, 422);
  const set = await put("Administrator, operator");
  assertEquals(set.status, 200);
  assertEquals(set.body.value, "operator,administrator");

  for (const url of [`${t.admin}/api/v1/auth/login`, `${t.dnsApi}/api/v1/auth/login`]) {
    const r = await call(url, { method: "POST", json: OLGA });
    assertEquals(r.status, 403, url);
    assertEquals(
      r.body.error,
      'Two-factor sign-in is required for the "operator" role; turn it on from the dashboard\'s Security page',
    );
  }
  // The administrator's existing session now reaches only enrolment; the token is not gated.
  const gated = await call(`${t.admin}/api/v1/interfaces`, { headers: { cookie: adminCookie } });
  assertEquals(gated.status, 403);
  const viaToken = await call(`${t.admin}/api/v1/interfaces`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assertEquals(viaToken.status, 200);
  assertEquals(
    (await getPage(t, "/peers", adminCookie)).headers.get("location"),
    "/account/security",
  );

  const form = await postForm(t, "/login", { ...OLGA, next: "/peers" }, "");
  assertEquals(form.status, 303);
  assertEquals(form.headers.get("location"), "/account/security");
  const cookie = form.headers.getSetCookie()[0].split(";")[0];
  const home = await getPage(t, "/", cookie);
  assertEquals(home.headers.get("location"), "/account/security");

  const security = await getPage(t, "/account/security", cookie);
  assertEquals(security.status, 200);
  assertStringIncludes(security.html, "Your role must use two-factor sign-in");
  assertEquals((await postForm(t, "/account/security", { _action: "enrol" }, cookie)).status, 303);
  const pending = await getPage(t, "/account/security", cookie);
  const secret = /<code data-secret="?[^>]*>([A-Z2-7]{32})<\/code>/.exec(pending.html)?.[1];
  assert(secret, "the page shows the secret");
  assertStringIncludes(pending.html, "<img");
  const code = (await run("oathtool", ["--totp", "-b", secret])).stdout.trim();
  const confirmed = await postForm(t, "/account/security", { _action: "confirm", code }, cookie);
  assertEquals(confirmed.status, 200);
  const page = await confirmed.text();
  const recovery = [...page.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((
    m,
  ) => m[1]);
  assertEquals(recovery.length, 10);
  assertEquals((await getPage(t, "/", cookie)).status, 200);

  const refused = await call(`${t.admin}/api/v1/auth/login`, { method: "POST", json: OLGA });
  assertEquals(refused.status, 401);
  assertMatch(String(refused.body.error), /two-factor code is required/);
  assertEquals(
    (await call(`${t.admin}/api/v1/auth/login`, { method: "POST", json: ADMIN })).status,
    403,
  );

  // Turning it off from the page (with a recovery code) puts the gate back.
  const wrongOff = await postForm(
    t,
    "/account/security",
    { _action: "disable", code: "000000" },
    cookie,
  );
  assertEquals(wrongOff.status, 403);
  const off = await postForm(
    t,
    "/account/security",
    { _action: "disable", code: recovery[0] },
    cookie,
  );
  assertEquals(off.headers.get("location"), "/account/security?done=off");
  assertStringIncludes(
    (await getPage(t, "/account/security?done=off", cookie)).html,
    "Two-factor sign-in is off",
  );
  assertEquals((await getPage(t, "/", cookie)).headers.get("location"), "/account/security");
});
