/**
 * RP-initiated logout (docs/sso.md, "Signing out") over HTTP against the
 * provider the test controls (tests/helpers/fake_idp.ts): a single sign-on
 * user's sign-out ends the session here and goes on to the provider's
 * end_session_endpoint with the ID token it was issued, the sign-in page as
 * post_logout_redirect_uri and the client id; it stays local without that
 * endpoint, with the provider's setting off, for a local user, and with a
 * logout cookie of another session; a token too large for a cookie is left
 * out of the hint; the token is never stored or shown.
 */
import { assert, assertEquals } from "../assert.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { type FakeIdp, startFakeIdp } from "../helpers/fake_idp.ts";
import { rawDump } from "../helpers/raw_sql.ts";
import { sqliteTables } from "../../lib/store/pg/catalog.ts";
import { fakeProvider } from "../helpers/sso_seed.ts";
import { ADMIN, startTestServer, type TestServer } from "../helpers/test_server.ts";

async function withProvider(t: TestServer, idp: FakeIdp, logoutAtProvider?: boolean) {
  const over = logoutAtProvider === undefined ? {} : { logout_at_provider: logoutAtProvider };
  await t.services.sso.providers.create("admin", fakeProvider(idp, over));
}

/** Signs in through the fake provider over HTTP; the cookies the browser would then hold. */
async function ssoSignIn(t: TestServer, idp: FakeIdp, extra: Record<string, unknown> = {}) {
  const started = await fetch(`${t.admin}/sso/fake`, { redirect: "manual" });
  await started.body?.cancel();
  const sent = new URL(started.headers.get("location")!).searchParams;
  const pending = started.headers.getSetCookie()[0].split(";")[0];
  idp.idTokenClaims = {
    sub: "s-1",
    aud: idp.clientId,
    nonce: sent.get("nonce")!,
    preferred_username: "nora",
    groups: ["netops"],
    ...extra,
  };
  const res = await fetch(`${t.admin}/sso/callback?code=c1&state=${sent.get("state")}`, {
    headers: { cookie: pending },
    redirect: "manual",
  });
  await res.body?.cancel();
  assertEquals(res.status, 200);
  const set = res.headers.getSetCookie();
  const pick = (name: string) => set.find((c) => c.startsWith(`${name}=`));
  return {
    session: pick("svc_session")!.split(";")[0],
    logout: pick("palisade_sso_logout")!,
  };
}

async function signOut(t: TestServer, cookie: string) {
  const res = await postForm(t, "/logout", {}, cookie);
  await res.body?.cancel();
  const cleared = res.headers.getSetCookie().some((c) =>
    c.startsWith("palisade_sso_logout=;") && c.includes("Max-Age=0")
  );
  return { status: res.status, location: res.headers.get("location")!, cleared };
}

async function sessionLive(t: TestServer, session: string): Promise<boolean> {
  return (await getPage(t, "/", session)).status === 200;
}

Deno.test("sso logout: signing out goes on to the provider's end_session_endpoint with the ID token", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await withProvider(t, idp);
  const { session, logout } = await ssoSignIn(t, idp);
  assert(/HttpOnly/.test(logout) && /SameSite=Strict/.test(logout), logout);
  assert(logout.includes("Path=/logout"), logout);
  const idToken = idp.idTokens.at(-1)!;
  assert(!logout.includes(idToken), "the cookie is sealed, not the token");

  const out = await signOut(t, `${session}; ${logout.split(";")[0]}`);
  assertEquals(out.status, 303);
  const to = new URL(out.location);
  assertEquals(`${to.origin}${to.pathname}`, `${idp.issuer}/logout`);
  assertEquals(Object.fromEntries(to.searchParams), {
    id_token_hint: idToken,
    post_logout_redirect_uri: `${t.admin}/login`,
    client_id: idp.clientId,
  });
  assert(out.cleared, "the logout cookie is removed");
  assertEquals(await sessionLive(t, session), false);

  // Nowhere in the store: no table, the audit log included, holds the token.
  const dump = JSON.stringify(rawDump(t.store.db, sqliteTables(t.store.db).map((x) => x.name)));
  assert(dump.includes("nora") && !dump.includes(idToken), "no table holds the token");
  const listed = JSON.stringify(await t.services.sso.providers.list());
  assert(!listed.includes(idToken), "the listing has no token");
});

Deno.test("sso logout: it stays local without end_session_endpoint or with the provider set to local", async () => {
  for (const variant of ["no endpoint", "setting off"] as const) {
    await using idp = await startFakeIdp();
    await using t = await startTestServer();
    idp.endSession = variant !== "no endpoint";
    await withProvider(t, idp, variant === "setting off" ? false : undefined);
    const { session, logout } = await ssoSignIn(t, idp);
    const out = await signOut(t, `${session}; ${logout.split(";")[0]}`);
    assertEquals([out.status, out.location, out.cleared], [303, "/login", true], variant);
    assertEquals(await sessionLive(t, session), false, variant);
  }
});

Deno.test("sso logout: a local user's sign-out is unchanged, even carrying another session's logout cookie", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await withProvider(t, idp);
  const sso = await ssoSignIn(t, idp);
  const local = await t.login(ADMIN.username, ADMIN.password);
  const plain = await signOut(t, local);
  assertEquals([plain.status, plain.location], [303, "/login"]);

  const again = await t.login(ADMIN.username, ADMIN.password);
  const mixed = await signOut(t, `${again}; ${sso.logout.split(";")[0]}`);
  assertEquals([mixed.status, mixed.location], [303, "/login"]);
  assertEquals(await sessionLive(t, sso.session), true, "the SSO session was not touched");
});

Deno.test("sso logout: an ID token too large for a cookie is left out and client_id alone is sent", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await withProvider(t, idp);
  const groups = ["netops", ...Array.from({ length: 200 }, (_, i) => `group-number-${i}`)];
  const { session, logout } = await ssoSignIn(t, idp, { groups });
  assert(idp.idTokens.at(-1)!.length > 4096, "the token is too large for a cookie");
  assert(logout.length < 4096, `the cookie is ${logout.length} bytes`);
  const out = await signOut(t, `${session}; ${logout.split(";")[0]}`);
  const to = new URL(out.location);
  assertEquals(Object.fromEntries(to.searchParams), {
    post_logout_redirect_uri: `${t.admin}/login`,
    client_id: idp.clientId,
  });
});

Deno.test("sso logout: the provider form shows the setting on by default and saves it off", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  const admin = await t.login();
  const fresh = await getPage(t, "/sso-providers", admin);
  assert(/name="logout_at_provider" value="true" checked/.test(fresh.html), "on for a new one");
  assert(fresh.html.includes(`register ${t.admin}/login as its post-logout`), "names the URI");
  await withProvider(t, idp);
  const saved = await postForm(t, "/sso-providers/fake", {
    _action: "save",
    display_name: "Fake IdP",
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: "",
    scopes: "openid",
    claim: "groups",
    role_map: "netops=operator",
    enabled: "true",
  }, admin);
  await saved.body?.cancel();
  assert(saved.status < 400, `saved: ${saved.status}`);
  assertEquals((await t.services.sso.providers.get("fake")).logout_at_provider, false);
  const page = await getPage(t, "/sso-providers/fake", admin);
  assert(/name="logout_at_provider" value="true" aria/.test(page.html), "shown unchecked");
});
