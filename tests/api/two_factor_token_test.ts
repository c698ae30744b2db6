/**
 * An API token cannot change its user's second factors: like creating a token
 * or changing the password (tests/api/auth_test.ts), that needs a signed-in
 * session. Otherwise a leaked token could enrol a TOTP secret its holder
 * keeps (locking the owner out of the dashboard and outliving the token's
 * revocation) or turn two-factor sign-in off with one seen code.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

Deno.test("an API token cannot enrol, confirm, disable two-factor sign-in or renew recovery codes", async () => {
  await using t = await startTestServer();
  const bearer = { Authorization: `Bearer ${await t.createToken("short", 1)}` };
  for (const action of ["enrol", "confirm", "disable", "recovery-codes"]) {
    const res = await call(`${t.admin}/api/v1/auth/two-factor/${action}`, {
      method: "POST",
      headers: bearer,
      json: action === "enrol" ? undefined : { code: "123456" },
    });
    assertEquals(res.status, 403, action);
    assertStringIncludes(String(res.body.error), "needs a signed-in session", action);
  }
  const admin = (await t.services.users.credentials(ADMIN.username))!.user;
  assertEquals(await t.services.auth.twoFactor.status(admin.id), {
    enabled: false,
    pending: false,
    recovery_codes_left: 0,
  });
  // Reading the status stays open to tokens.
  const status = await call(`${t.admin}/api/v1/auth/two-factor`, { headers: bearer });
  assertEquals(status.status, 200);
});
