/**
 * Passkey checks that need no browser, with a software authenticator
 * (tests/helpers/soft_authenticator.ts) against the real services: an
 * assertion signs in once (a replay is refused), one whose signature counter
 * went back is refused (a cloned authenticator), a challenge is refused past
 * its five minutes and for another purpose, another user's passkey is
 * refused as the second step, a registration answering another user's
 * challenge is refused, the passkey makes a password alone insufficient,
 * and a passkey added from the Security page satisfies a role's 2FA requirement.
 */
import { assertEquals, assertRejects, assertStringIncludes } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { UnauthorizedError } from "../../lib/errors.ts";
import { SoftAuthenticator } from "../helpers/soft_authenticator.ts";
import { ADMIN, call, startTestServer, type TestServer } from "../helpers/test_server.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { AuthUser } from "../../lib/auth/user.ts";

const RP = { id: "localhost", origin: "http://localhost:8000" };
const CLIENT = { address: "127.0.0.1", userAgent: "test" };
const BOB = { username: "bob", password: "bob-password-12345" };

async function user(t: TestServer, username: string): Promise<AuthUser> {
  return (await t.services.users.credentials(username))!.user;
}

/** Registers a new software passkey for `username`. */
async function registered(t: TestServer, username: string): Promise<SoftAuthenticator> {
  const { passkeys } = t.services.auth;
  const who = await user(t, username);
  const a = await SoftAuthenticator.create();
  await passkeys.register(
    who,
    `${username}'s key`,
    await a.register(await passkeys.registrationOptions(who, RP), RP.origin),
    RP,
  );
  return a;
}

const refused = { code: "passkey_invalid" };
async function assertRefused(p: Promise<unknown>): Promise<void> {
  const err = await assertRejects(() => p, UnauthorizedError);
  assertEquals({ code: (err as UnauthorizedError).code }, refused);
}

Deno.test("a passkey assertion signs in once; a replay, a counter gone back, an expired or misused challenge are refused", async () => {
  const clock = new ManualClock(Date.now());
  // Five refusals below: the throttle (tested elsewhere) would make the sixth attempt wait.
  await using t = await startTestServer({ clock, env: { PALISADE_LOGIN_USER_FAILURES: "50" } });
  const { auth } = t.services;
  const key = await registered(t, ADMIN.username);
  const answer = await key.assert(await auth.passkeys.loginOptions(RP), RP.origin);
  const signedIn = await auth.loginWithPasskey(answer, RP, CLIENT);
  assertEquals(signedIn.user.username, ADMIN.username);
  await assertRefused(auth.loginWithPasskey(answer, RP, CLIENT));

  // A clone of the authenticator: its counter is behind the one stored.
  key.counter = 0;
  await assertRefused(
    auth.loginWithPasskey(
      await key.assert(await auth.passkeys.loginOptions(RP), RP.origin),
      RP,
      CLIENT,
    ),
  );

  const late = await auth.passkeys.loginOptions(RP);
  clock.advance(5 * 60_000 + 1);
  key.counter = 10;
  await assertRefused(auth.loginWithPasskey(await key.assert(late, RP.origin), RP, CLIENT));

  // A challenge of the second step does not sign in without the password.
  const admin = await user(t, ADMIN.username);
  const second = await auth.passkeys.loginOptions(RP, admin.id);
  await assertRefused(auth.loginWithPasskey(await key.assert(second, RP.origin), RP, CLIENT));
  // Another origin (a phishing page relaying the challenge).
  const phished = await key.assert(await auth.passkeys.loginOptions(RP), "http://evil.test");
  await assertRefused(auth.loginWithPasskey(phished, RP, CLIENT));

  const ok = await key.assert(await auth.passkeys.loginOptions(RP), RP.origin);
  assertEquals((await auth.loginWithPasskey(ok, RP, CLIENT)).user.username, ADMIN.username);
  const failed = (await t.services.audit.list({
    event_type: "auth.login_failed",
    limit: 50,
    offset: 0,
  })).records;
  assertEquals(failed.length, 5);
});

Deno.test("with a passkey the password alone is not enough; only the user's own passkey completes the second step", async () => {
  await using t = await startTestServer();
  const { auth } = t.services;
  await t.addUser(BOB.username, "operator", BOB.password);
  const bobsKey = await registered(t, BOB.username);
  const adminsKey = await registered(t, ADMIN.username);

  const step = await auth.loginStep(ADMIN.username, ADMIN.password, CLIENT, {});
  if (!("ticket" in step)) throw new Error("a password alone signed in");
  const admin = await user(t, ADMIN.username);
  const options = await auth.passkeys.loginOptions(RP, admin.id);
  const bobs = await bobsKey.assert(options, RP.origin);
  await assertRefused(
    auth.loginWithTicket(step.ticket, { passkey: { response: bobs, rp: RP } }, CLIENT),
  );

  const own = await adminsKey.assert(await auth.passkeys.loginOptions(RP, admin.id), RP.origin);
  const done = await auth.loginWithTicket(
    step.ticket,
    { passkey: { response: own, rp: RP } },
    CLIENT,
  );
  assertEquals(done.user.username, ADMIN.username);
  assertEquals(await auth.twoFactor.hasSecondFactor(admin.id), true);
});

Deno.test("a registration answering another user's challenge is refused", async () => {
  await using t = await startTestServer();
  const { passkeys } = t.services.auth;
  await t.addUser(BOB.username, "operator", BOB.password);
  const admin = await user(t, ADMIN.username);
  const bob = await user(t, BOB.username);
  const a = await SoftAuthenticator.create();
  const answer = await a.register(await passkeys.registrationOptions(bob, RP), RP.origin);
  const err = await assertRejects(() => passkeys.register(admin, "stolen", answer, RP));
  assertEquals((err as { code?: string }).code, "passkey_invalid");
  assertEquals(await passkeys.list(admin.id), []);
});

/** The options of the page's passkey form (the island's props, as the browser would read them). */
function islandOptions(html: string): PublicKeyCredentialCreationOptionsJSON {
  const m = html.match(/data-island="PasskeyForm" data-props="([^"]*)"/);
  if (!m) throw new Error("no passkey form on the page");
  const json = m[1].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return JSON.parse(json).options;
}

Deno.test("a role that requires 2FA: a passkey added from the Security page lets its user past the enrolment gate", async () => {
  await using t = await startTestServer();
  const token = await t.createToken("settings");
  await t.addUser("olga", "operator", "olga-password-123");
  const set = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}` },
    json: { key: "auth.two_factor_roles", value: "operator" },
  });
  assertEquals(set.status, 200);
  const login = await postForm(t, "/login", {
    username: "olga",
    password: "olga-password-123",
  }, "");
  assertEquals(login.headers.get("location"), "/account/security");
  const cookie = login.headers.getSetCookie()[0].split(";")[0];
  assertEquals((await getPage(t, "/peers", cookie)).headers.get("location"), "/account/security");

  const security = await getPage(t, "/account/security", cookie);
  const asked = "Your role must use two-factor sign-in: turn it on or add a passkey";
  assertStringIncludes(security.html, asked);
  const key = await SoftAuthenticator.create();
  const credential = JSON.stringify(await key.register(islandOptions(security.html), t.admin));
  const unnamed = await postForm(t, "/account/security", {
    _action: "passkey_add",
    name: " ",
    credential,
  }, cookie);
  assertEquals(unnamed.status, 422);
  assertStringIncludes(await unnamed.text(), "Name the passkey");
  const added = await postForm(t, "/account/security", {
    _action: "passkey_add",
    name: "Phone",
    credential,
  }, cookie);
  assertEquals(added.headers.get("location"), "/account/security?done=passkey_added");
  assertEquals((await getPage(t, "/peers", cookie)).status, 200);
  assertEquals((await getPage(t, "/account/security", cookie)).html.includes(asked), false);
});
