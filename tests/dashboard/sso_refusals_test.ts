/**
 * Single sign-on refusals over HTTP (docs/sso.md), against a provider the
 * test controls (tests/helpers/fake_idp.ts): an ID token issued to another
 * client, a wrong or missing nonce, a state that is not this sign-in's, and a
 * group that maps to no role are refused with a page saying so and no
 * session; a name clash does not take over the local user; turning local
 * password sign-in off makes the password form refuse, is refused itself
 * without an enabled provider, and PALISADE_SSO_FORCE_PASSWORD_LOGIN
 * overrides it.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../assert.ts";
import { postForm } from "../helpers/dashboard.ts";
import { type FakeIdp, startFakeIdp } from "../helpers/fake_idp.ts";
import { fakeProvider } from "../helpers/sso_seed.ts";
import { ADMIN, startTestServer, type TestServer } from "../helpers/test_server.ts";
import { ConflictError, ForbiddenError } from "../../lib/errors.ts";
import { base32Decode, stepAt, totpCode } from "../../lib/auth/totp.ts";

async function withProvider(t: TestServer, idp: FakeIdp, enabled = true): Promise<void> {
  await t.services.sso.providers.create("admin", fakeProvider(idp, { enabled }));
}

/** Starts a sign-in; the state, nonce and PKCE challenge sent to the provider, and the cookie. */
async function begin(t: TestServer) {
  const res = await fetch(`${t.admin}/sso/fake`, { redirect: "manual" });
  await res.body?.cancel();
  assertEquals(res.status, 303);
  const to = new URL(res.headers.get("location")!);
  const cookie = res.headers.get("set-cookie")!.split(";")[0];
  const q = (k: string) => to.searchParams.get(k)!;
  return { state: q("state"), nonce: q("nonce"), challenge: q("code_challenge"), cookie, to };
}

async function callback(t: TestServer, cookie: string, state: string) {
  const res = await fetch(`${t.admin}/sso/callback?code=c1&state=${encodeURIComponent(state)}`, {
    headers: { cookie },
    redirect: "manual",
  });
  const session = (res.headers.get("set-cookie") ?? "").includes("svc_session=");
  return { status: res.status, html: await res.text(), session };
}

async function s256(verifier: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...new Uint8Array(d))).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

Deno.test("sso: a right ID token signs in with PKCE S256; the wrong audience, nonce or state is refused", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await withProvider(t, idp);
  const claims = (nonce: string | undefined) => ({
    sub: "s-1",
    aud: idp.clientId,
    nonce,
    preferred_username: "nora",
    groups: ["netops"],
  });

  const a = await begin(t);
  assertEquals([a.to.searchParams.get("code_challenge_method"), a.to.pathname], [
    "S256",
    "/authorize",
  ]);
  idp.idTokenClaims = { ...claims(a.nonce), aud: "another-client" };
  const wrongAud = await callback(t, a.cookie, a.state);
  assertEquals([wrongAud.status, wrongAud.session], [401, false]);
  assertStringIncludes(wrongAud.html, "did not verify");

  for (const nonce of ["not-the-nonce", undefined]) {
    const b = await begin(t);
    idp.idTokenClaims = claims(nonce);
    const wrongNonce = await callback(t, b.cookie, b.state);
    assertEquals([wrongNonce.status, wrongNonce.session], [401, false]);
    assertStringIncludes(wrongNonce.html, "does not belong to this sign-in");
  }

  const c = await begin(t);
  const before = idp.tokenRequests.length;
  const badState = await callback(t, c.cookie, `${c.state}x`);
  assertEquals([badState.status, badState.session], [401, false]);
  assertStringIncludes(badState.html, "state does not match");
  assertEquals(idp.tokenRequests.length, before, "no code is exchanged on a bad state");
  const noCookie = await callback(t, "", c.state);
  assertEquals([noCookie.status, noCookie.session], [401, false]);
  assertEquals((await t.services.users.list()).map((u) => u.username), [ADMIN.username]);

  const d = await begin(t);
  idp.idTokenClaims = claims(d.nonce);
  const ok = await callback(t, d.cookie, d.state);
  assertEquals([ok.status, ok.session], [200, true]);
  assertStringIncludes(ok.html, 'http-equiv="refresh"');
  const sent = idp.tokenRequests.at(-1)!;
  assertEquals(await s256(sent.get("code_verifier")!), d.challenge);
  assertEquals(sent.get("redirect_uri"), `${t.admin}/sso/callback`);
  const nora = (await t.services.users.list()).find((u) => u.username === "nora");
  assertEquals(nora?.role, "operator");
});

Deno.test("sso: a group that maps to no role is refused, and a name clash does not take over the local user", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await withProvider(t, idp);
  await t.addUser("nora", "administrator", "local password of nora");

  const a = await begin(t);
  idp.idTokenClaims = { sub: "s-1", aud: idp.clientId, nonce: a.nonce, groups: ["sales"] };
  const refused = await callback(t, a.cookie, a.state);
  assertEquals([refused.status, refused.session], [403, false]);
  assertStringIncludes(refused.html, "no &quot;groups&quot; value that maps to a Palisade role");

  for (let i = 0; i < 2; i++) {
    const b = await begin(t);
    idp.idTokenClaims = {
      sub: "s-1",
      aud: idp.clientId,
      nonce: b.nonce,
      preferred_username: "nora",
      groups: ["netops", "sales"],
    };
    assertEquals((await callback(t, b.cookie, b.state)).session, true);
  }
  const users = await t.services.users.list();
  const byName = Object.fromEntries(users.map((u) => [u.username, u.role]));
  // The local nora keeps her role; the provider's nora got her own account, once.
  assertEquals(byName, {
    [ADMIN.username]: "administrator",
    nora: "administrator",
    "nora.fake": "operator",
  });
  await t.login("nora", "local password of nora");
});

Deno.test("sso: with local password sign-in off the password form refuses; off needs an enabled provider", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  const { providers } = t.services.sso;
  await assertRejects(() => providers.setLocalPassword("admin", false), ConflictError);
  await withProvider(t, idp, false);
  await assertRejects(() => providers.setLocalPassword("admin", false), ConflictError);
  await providers.update("admin", "fake", {
    id: "fake",
    display_name: "Fake IdP",
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: "",
    scopes: "openid",
    claim: "groups",
    role_map: "netops=operator",
    enabled: true,
  });
  await providers.setLocalPassword("admin", false);
  // The last enabled provider cannot go while passwords are off.
  await assertRejects(() => providers.delete("admin", "fake"), ConflictError);

  const form = await postForm(t, "/login", { ...ADMIN }, "");
  assertEquals(form.status, 403);
  assertStringIncludes(await form.text(), "Password sign-in is turned off");
  const page = await (await fetch(`${t.admin}/login`)).text();
  assert(!page.includes('name="password"'), "no password form");
  assertStringIncludes(page, "Sign in with Fake IdP");
  await assertRejects(() => t.login());
});

Deno.test("sso: a second-step ticket issued before password sign-in was turned off no longer signs in", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await withProvider(t, idp);
  const { auth, users } = t.services;
  const admin = (await users.credentials(ADMIN.username))!.user;
  const enrolment = await auth.twoFactor.begin(admin);
  const secret = base32Decode(enrolment.secret);
  await auth.twoFactor.confirm(admin, await totpCode(secret, stepAt(Date.now())));
  const client = { address: "127.0.0.1", userAgent: "test" };
  const step = await auth.loginStep(ADMIN.username, ADMIN.password, client, {});
  assert("ticket" in step, "the password step hands out a ticket");
  await t.services.sso.providers.setLocalPassword("admin", false);
  // A code that would be accepted (the next step, inside the window).
  const code = await totpCode(secret, stepAt(Date.now()) + 1);
  const err = await assertRejects(() =>
    auth.loginWithTicket(step.ticket, { totpCode: code }, client)
  );
  assertEquals((err as ForbiddenError).code, "password_sign_in_disabled");
});

Deno.test("sso: PALISADE_SSO_FORCE_PASSWORD_LOGIN lets passwords in while local password sign-in is off", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer({ env: { PALISADE_SSO_FORCE_PASSWORD_LOGIN: "true" } });
  await withProvider(t, idp);
  await t.services.sso.providers.setLocalPassword("admin", false);
  await t.login();
});

Deno.test("sso: the Single sign-on pages are for administrators only", async () => {
  await using t = await startTestServer();
  await t.addUser("olga", "operator", "operator password 1");
  const cookie = await t.login("olga", "operator password 1");
  for (const path of ["/sso-providers", "/sso-providers/x"]) {
    const res = await fetch(`${t.admin}${path}`, { headers: { cookie }, redirect: "manual" });
    await res.body?.cancel();
    assertEquals(res.status, 403, path);
  }
  const made = await postForm(t, "/sso-providers", { _action: "create", id: "x" }, cookie);
  await made.body?.cancel();
  assertEquals(made.status, 403);
  assertEquals(await t.services.sso.providers.list(), []);
});

Deno.test("sso: an unreachable provider is a 503 at the start, a disabled or unknown one a 404", async () => {
  await using t = await startTestServer();
  // A port nothing listens on: bind one, note it, close it.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  await t.services.sso.providers.create("admin", {
    id: "down",
    display_name: "Down",
    issuer: `http://127.0.0.1:${port}`,
    client_id: "c",
    client_secret: "s",
    scopes: "openid",
    claim: "groups",
    role_map: "netops=viewer",
    enabled: true,
  });
  const statusOf = async (path: string) => {
    const res = await fetch(`${t.admin}${path}`, { redirect: "manual" });
    await res.body?.cancel();
    return res.status;
  };
  assertEquals(await statusOf("/sso/down"), 503);
  assertEquals(await statusOf("/sso/nobody"), 404);
  const down = await t.services.sso.providers.get("down");
  await t.services.sso.providers.update("admin", "down", {
    ...down,
    client_secret: "",
    role_map: "netops=viewer",
    enabled: false,
  });
  assertEquals(await statusOf("/sso/down"), 404);
});
