/**
 * The administrator's view of every user's API tokens: `/tokens?all=true`
 * lists them with their owner and any of them can be revoked through the
 * confirmation page; for anyone else the switch is ignored as
 * `GET /auth/tokens?all=true` ignores it, and another user's token stays 404.
 * The users page says its accounts are the DNS API's users too.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

/** The status of an API call carrying `raw` as a bearer token. */
async function bearerStatus(t: TestServer, raw: string): Promise<number> {
  const res = await fetch(`${t.admin}/api/v1/auth/session`, {
    headers: { authorization: `Bearer ${raw}` },
  });
  await res.body?.cancel();
  return res.status;
}

/** Creates an API token as the user of `cookie` through the page; its raw value. */
async function tokenOf(t: TestServer, cookie: string, name: string): Promise<string> {
  const res = await postForm(t, "/tokens", { name, expires_in_days: "7" }, cookie);
  assertEquals(res.status, 200);
  const raw = /<pre id="new-token-value">(svc_[^<]+)<\/pre>/.exec(await res.text())?.[1];
  assert(raw, "the raw token is on the answer");
  return raw;
}

const idOf = (raw: string) => raw.split("_")[1];

Deno.test("tokens page: an administrator lists every user's tokens with their owner and revokes another user's", async () => {
  await using t = await startTestServer();
  const admin = await t.login();
  await t.addUser("vera", "viewer");
  const vera = await t.login("vera", "vera-password-123");
  const veraRaw = await tokenOf(t, vera, "vera-ci");
  const adminRaw = await tokenOf(t, admin, "admin-ci");

  let page = await getPage(t, "/tokens", admin);
  assertStringIncludes(page.html, `href="/tokens?all=true"`);
  assertStringIncludes(page.html, "All users' tokens");
  assertEquals(rowText(page.html, "data-token-id", idOf(veraRaw)), null, "own tokens by default");

  page = await getPage(t, "/tokens?all=true", admin);
  assertEquals(page.status, 200);
  assertStringIncludes(page.html, '<th scope="col">Owner</th>');
  assertStringIncludes(
    rowText(page.html, "data-token-id", idOf(veraRaw)) ?? "",
    "vera-ci vera svc_",
  );
  assertStringIncludes(
    rowText(page.html, "data-token-id", idOf(adminRaw)) ?? "",
    "admin-ci admin svc_",
  );
  assertStringIncludes(page.html, `href="/tokens/${idOf(veraRaw)}/revoke"`);

  const ask = await getPage(t, `/tokens/${idOf(veraRaw)}/revoke`, admin);
  assertEquals(ask.status, 200);
  assertStringIncludes(ask.html, "Revoke API token <strong>vera-ci</strong>");
  assertStringIncludes(ask.html, "of user <strong>vera</strong>");
  assertEquals(await bearerStatus(t, veraRaw), 200, "asking revokes nothing");
  const res = await postForm(t, `/tokens/${idOf(veraRaw)}/revoke`, {}, admin);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/tokens?all=true&done=revoked");
  assertEquals(await bearerStatus(t, veraRaw), 401);
  assertEquals(await bearerStatus(t, adminRaw), 200);
  page = await getPage(t, "/tokens?all=true&done=revoked", admin);
  assertStringIncludes(page.html, "API token revoked.");
  assertEquals(rowText(page.html, "data-token-id", idOf(veraRaw)), null);
});

Deno.test("tokens page: for a non-administrator ?all=true is ignored (own tokens, no switch) and another user's token is 404", async () => {
  await using t = await startTestServer();
  const admin = await t.login();
  const adminRaw = await tokenOf(t, admin, "admin-ci");
  await t.addUser("olga", "operator");
  const olga = await t.login("olga", "olga-password-123");
  const olgaRaw = await tokenOf(t, olga, "olga-ci");

  for (const path of ["/tokens", "/tokens?all=true"]) {
    const page = await getPage(t, path, olga);
    assertEquals(page.status, 200, path);
    assert(!page.html.includes("all=true"), `${path}: no switch`);
    assert(!page.html.includes(">Owner<"), `${path}: no owner column`);
    assert(rowText(page.html, "data-token-id", idOf(olgaRaw)), `${path}: own token listed`);
    assertEquals(rowText(page.html, "data-token-id", idOf(adminRaw)), null, path);
  }
  assertEquals((await getPage(t, `/tokens/${idOf(adminRaw)}/revoke`, olga)).status, 404);
  assertEquals((await postForm(t, `/tokens/${idOf(adminRaw)}/revoke`, {}, olga)).status, 404);
  assertEquals(await bearerStatus(t, adminRaw), 200);
  // Revoking one's own token still answers the own list.
  const res = await postForm(t, `/tokens/${idOf(olgaRaw)}/revoke`, {}, olga);
  assertEquals(res.headers.get("location"), "/tokens?done=revoked");
});

Deno.test("users page: says its accounts are the dashboard's, the tunnel API's and the DNS API's users", async () => {
  await using t = await startTestServer();
  const page = await getPage(t, "/users", await t.login());
  assertEquals(page.status, 200);
  assertStringIncludes(page.html, "the same for the dashboard, the tunnel API and the DNS API");
  assertStringIncludes(page.html, "<code>POST /users</code>) are this list");
});
