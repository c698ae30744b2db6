/**
 * The "lost phone" follow-ups of two-factor sign-in, with codes from an
 * independent TOTP tool (`oathtool`): a user makes ten new recovery codes
 * with a current code (over the API and from the Security page) and the
 * earlier ones stop working; an administrator resets another user's second
 * factors (TOTP, recovery codes, a real software passkey) over the API,
 * which ends that user's sessions, lets the password alone sign in, sends a
 * user whose role requires 2FA back to enrolment, and is refused to
 * non-administrators and for one's own account.
 */
import { assert, assertEquals, assertMatch, assertNotEquals } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { SoftAuthenticator } from "../helpers/soft_authenticator.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { ADMIN, call, startTestServer, type TestServer } from "../helpers/test_server.ts";

const T0 = Date.UTC(2026, 0, 1, 0, 0, 10);
const STEP = 30_000;
const RP = { id: "localhost", origin: "http://localhost:8000" };
const CLIENT = { address: "127.0.0.1", userAgent: "test" };
const OLGA = { username: "olga", password: "olga-password-123" };

/** The code oathtool computes for `secret` (base32) at `ms`. */
async function oath(secret: string, ms: number): Promise<string> {
  const out = await run("oathtool", ["--totp", "-b", secret, "--now", `@${Math.floor(ms / 1000)}`]);
  return out.stdout.trim();
}

const login = (t: TestServer, who: Record<string, string>, totp_code?: string) =>
  call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: totp_code === undefined ? who : { ...who, totp_code },
  });

const post = (t: TestServer, path: string, cookie: string, json?: unknown) =>
  call(`${t.admin}/api/v1${path}`, { method: "POST", headers: { cookie }, json });

/** Turns TOTP on for the user signed in by `cookie`; the secret and its recovery codes. */
async function enrol(t: TestServer, cookie: string, clock: ManualClock) {
  const started = await post(t, "/auth/two-factor/enrol", cookie);
  assertEquals(started.status, 200);
  const secret = started.body.secret as string;
  const done = await post(t, "/auth/two-factor/confirm", cookie, {
    code: await oath(secret, clock.now()),
  });
  assertEquals(done.status, 200, JSON.stringify(done.body));
  return { secret, codes: done.body.recovery_codes as string[] };
}

const cookieOf = (r: { headers: Headers }) => r.headers.getSetCookie()[0].split(";")[0];

Deno.test("new recovery codes after a current oathtool code: the earlier codes are refused, the new ones sign in once", async () => {
  if (!haveSystem("recovery codes made anew", ["oathtool"])) return;
  const clock = new ManualClock(T0);
  await using t = await startTestServer({ clock });
  let cookie = await t.login();
  const { secret, codes: old } = await enrol(t, cookie, clock);
  const regenerate = (code: string) => post(t, "/auth/two-factor/recovery-codes", cookie, { code });

  // A recovery code does not vouch for its successors, and is not used up by trying.
  const byRecovery = await regenerate(old[0]);
  assertEquals([byRecovery.status, byRecovery.body.error], [403, "Invalid two-factor code"]);
  assertEquals((await regenerate("000000")).status, 403);
  // The confirming code's step is taken.
  assertEquals((await regenerate(await oath(secret, T0))).status, 403);
  clock.advance(STEP);
  const made = await regenerate(await oath(secret, clock.now()));
  assertEquals(made.status, 200, JSON.stringify(made.body));
  const fresh = made.body.recovery_codes as string[];
  assertEquals(fresh.length, 10);
  assertEquals(new Set(fresh).size, 10);
  for (const c of fresh) assertMatch(c, /^[a-z2-7]{5}-[a-z2-7]{5}$/);
  assertEquals(fresh.filter((c) => old.includes(c)), []);

  for (const c of [old[0], old[1]]) {
    const r = await login(t, ADMIN, c);
    assertEquals([r.status, r.body.code], [401, "totp_invalid"], `earlier code ${c}`);
  }
  assertEquals((await login(t, ADMIN, fresh[0])).status, 200);
  assertEquals((await login(t, ADMIN, fresh[0])).status, 401);

  // From the Security page: the form takes a current code and shows the new codes once.
  clock.advance(STEP);
  cookie = cookieOf(await login(t, ADMIN, fresh[1]));
  const wrong = await postForm(
    t,
    "/account/security",
    { _action: "regenerate", code: "123456" },
    cookie,
  );
  assertEquals(wrong.status, 403);
  assertMatch(await wrong.text(), /id="regenerate-code-error"[^>]*>Invalid two-factor code/);
  const page = await postForm(
    t,
    "/account/security",
    { _action: "regenerate", code: await oath(secret, clock.now()) },
    cookie,
  );
  assertEquals(page.status, 200);
  const html = await page.text();
  const shown = [...html.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)]
    .map((m) => m[1]);
  assertEquals(shown.length, 10);
  assertMatch(html, /Your earlier recovery codes no longer work/);
  assertEquals((await login(t, ADMIN, fresh[2])).body.code, "totp_invalid");
  assertEquals((await login(t, ADMIN, shown[0])).status, 200);
  assert(!(await getPage(t, "/account/security", cookie)).html.includes(shown[1]));

  const audit = rawRows<Record<string, string>>(t.store, "audit", ["*"], "id");
  assertEquals(
    audit.filter((r) => r.event_type === "auth.recovery_codes_regenerated").length,
    2,
  );
  const text = JSON.stringify(audit);
  for (const c of [...old, ...fresh, ...shown, secret]) assert(!text.includes(c), c);

  // Without two-factor sign-in on there is nothing to renew.
  await t.addUser("olga", "viewer", OLGA.password);
  const olga = cookieOf(await login(t, OLGA));
  const off = await post(t, "/auth/two-factor/recovery-codes", olga, { code: "123456" });
  assertEquals(
    [off.status, off.body.error],
    [409, "Two-factor sign-in is off; turn it on first"],
  );
});

Deno.test("an administrator resets a user's TOTP, recovery codes and passkeys: sessions end, the password alone signs in, a required role enrols again", async () => {
  if (!haveSystem("two-factor reset", ["oathtool"])) return;
  const clock = new ManualClock(T0);
  await using t = await startTestServer({ clock });
  const admin = await t.login();
  await t.addUser("olga", "operator", OLGA.password);
  await t.addUser("vera", "viewer");
  await t.addUser("otto", "operator");
  const olgaUser = (await t.services.users.credentials("olga"))!.user;
  const olgaSession = cookieOf(await login(t, OLGA));
  const { codes } = await enrol(t, olgaSession, clock);
  const { passkeys } = t.services.auth;
  const key = await SoftAuthenticator.create();
  await passkeys.register(
    olgaUser,
    "olga's key",
    await key.register(await passkeys.registrationOptions(olgaUser, RP), RP.origin),
    RP,
  );
  assertEquals((await login(t, OLGA)).body.code, "totp_required");
  const reset = (id: string, cookie: string) => post(t, `/users/${id}/two-factor/reset`, cookie);

  // Only an administrator, and not on their own account.
  for (const who of ["vera", "otto"]) {
    const r = await reset(olgaUser.id, await t.login(who, `${who}-password-123`));
    assertEquals(r.status, 403, who);
  }
  const adminId = (await t.services.users.credentials("admin"))!.user.id;
  const own = await reset(adminId, admin);
  assertEquals(
    [own.status, own.body.error],
    [403, "Your own second factors cannot be reset here; use the Security page"],
  );
  assertEquals((await reset(crypto.randomUUID(), admin)).status, 404);
  assertEquals(rawRows(t.store, "user_passkeys", ["id"], "id").length, 1);

  const done = await reset(olgaUser.id, admin);
  assertEquals(done.status, 200, JSON.stringify(done.body));
  assertEquals(done.body, {
    username: "olga",
    totp_removed: true,
    passkeys_removed: 1,
    ended_sessions: 1,
  });
  for (const table of ["user_totp", "user_recovery_codes", "user_passkeys"]) {
    assertEquals(rawRows(t.store, table, ["user_id"], "user_id"), [], table);
  }
  // Her session ended; the administrator's did not.
  const session = (cookie: string) =>
    call(`${t.admin}/api/v1/auth/session`, { headers: { cookie } });
  assertEquals((await session(olgaSession)).status, 401);
  assertEquals((await session(admin)).status, 200);
  // The password alone signs her in; her recovery codes and passkey are gone with the reset.
  assertEquals((await login(t, OLGA)).status, 200);
  assertEquals((await login(t, OLGA, codes[0])).status, 200);
  const options = await passkeys.loginOptions(RP);
  const assertion = await key.assert(options, RP.origin);
  const refused = await t.services.auth.loginWithPasskey(assertion, RP, CLIENT).then(
    () => "signed in",
    (e) => e.code,
  );
  assertEquals(refused, "passkey_invalid");
  const again = await reset(olgaUser.id, admin);
  assertEquals(
    [again.status, again.body.error],
    [409, 'User "olga" has no second factor to reset'],
  );

  const rows = rawRows<Record<string, string>>(t.store, "audit", ["*"], "id")
    .filter((r) => r.event_type === "auth.two_factor_reset");
  assertEquals(rows.length, 1);
  assertEquals([rows[0].actor, rows[0].resource_id], ["admin", olgaUser.id]);
  assertMatch(rows[0].message, /"olga"/);
  for (const c of codes) assert(!rows[0].message.includes(c));

  // Her role now requires 2FA: the dashboard sends her to enrol, the API refuses.
  const set = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie: admin },
    json: { key: "auth.two_factor_roles", value: "operator" },
  });
  assertEquals(set.status, 200);
  const gated = await login(t, OLGA);
  assertEquals(gated.status, 403);
  assertMatch(String(gated.body.error), /Two-factor sign-in is required for the "operator" role/);
  const form = await postForm(t, "/login", { ...OLGA, next: "/peers" }, "");
  assertEquals(form.status, 303);
  assertEquals(form.headers.get("location"), "/account/security");
  assertNotEquals(cookieOf(form), olgaSession);
});

Deno.test("the reset page refuses one's own account and is for administrators only", async () => {
  await using t = await startTestServer();
  const admin = await t.login();
  const adminId = (await t.services.users.credentials("admin"))!.user.id;
  const ownPage = await getPage(t, `/users/${adminId}/reset-two-factor`, admin);
  assertEquals(ownPage.status, 200);
  const own = await postForm(t, `/users/${adminId}/reset-two-factor`, {}, admin);
  assertEquals(own.status, 403);
  assertMatch(await own.text(), /use the Security page/);
  await t.addUser("otto", "operator");
  const otto = await t.login("otto", "otto-password-123");
  assertEquals((await getPage(t, `/users/${adminId}/reset-two-factor`, otto)).status, 403);
  const users = await getPage(t, "/users", admin);
  assertMatch(users.html, /data-second-factors="otto"[^>]*><span><span class="muted">none<\/span>/);
});
