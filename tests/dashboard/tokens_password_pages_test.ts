/**
 * The API tokens and change-password pages without a browser: the raw token
 * is on the create answer only, revoking asks first, viewers manage their
 * own tokens, and a password change ends every session of the user.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

/** The status of an API call carrying `raw` as a bearer token. */
async function bearerStatus(t: TestServer, raw: string): Promise<number> {
  const res = await fetch(`${t.admin}/api/v1/auth/session`, {
    headers: { authorization: `Bearer ${raw}` },
  });
  await res.body?.cancel();
  return res.status;
}

const rawOf = (html: string) => /<pre id="new-token-value">(svc_[^<]+)<\/pre>/.exec(html)?.[1];

Deno.test("tokens page: the raw token is on the create answer only, listed after without it, and revoked through a confirmation", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();

  let res = await postForm(t, "/tokens", { name: "ci", expires_in_days: "ten" }, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "f-expires_in_days") ?? "", '"ten"');

  res = await postForm(t, "/tokens", { name: "ci", expires_in_days: "30" }, cookie);
  assertEquals(res.status, 200, "answered, not redirected: a reload must not show it again");
  const html = await res.text();
  const raw = rawOf(html);
  assert(raw, "the raw token is on the answer");
  assertStringIncludes(html, "it will not be shown again");
  assertEquals(await bearerStatus(t, raw), 200, "the shown token works");

  const list = await getPage(t, "/tokens", cookie);
  assertEquals(list.status, 200);
  assert(!list.html.includes(raw), "the raw token is in no later page");
  assertEquals(rawOf(list.html), undefined);
  const id = raw.split("_")[1];
  assertStringIncludes(rowText(list.html, "data-token-id", id) ?? "", `ci svc_${id}`);
  assert(!rowText(list.html, "data-token-id", id)!.includes("never"), "its use is shown");

  const ask = await getPage(t, `/tokens/${id}/revoke`, cookie);
  assertStringIncludes(ask.html, "Revoke API token <strong>ci</strong>");
  assertEquals(await bearerStatus(t, raw), 200, "asking revokes nothing");
  res = await postForm(t, `/tokens/${id}/revoke`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/tokens?done=revoked");
  assertEquals(await bearerStatus(t, raw), 401);
  const after = await getPage(t, "/tokens?done=revoked", cookie);
  assertStringIncludes(after.html, "API token revoked.");
  assertEquals(rowText(after.html, "data-token-id", id), null);
});

Deno.test("tokens page: a viewer creates and revokes their own tokens and cannot reach another user's", async () => {
  await using t = await startTestServer();
  const adminRaw = await t.createToken("admin-token");
  const adminId = adminRaw.split("_")[1];
  await t.addUser("vera", "viewer");
  const vera = await t.login("vera", "vera-password-123");

  let page = await getPage(t, "/tokens", vera);
  assertEquals(page.status, 200);
  assert(!page.html.includes(adminId), "another user's token is not listed");
  const res = await postForm(t, "/tokens", { name: "mine", expires_in_days: "1" }, vera);
  assertEquals(res.status, 200);
  const raw = rawOf(await res.text());
  assert(raw);
  page = await getPage(t, `/tokens/${adminId}/revoke`, vera);
  assertEquals(page.status, 404);
  assertEquals((await postForm(t, `/tokens/${adminId}/revoke`, {}, vera)).status, 404);
  assertEquals(await bearerStatus(t, adminRaw), 200, "the administrator's token is kept");
  const done = await postForm(t, `/tokens/${raw.split("_")[1]}/revoke`, {}, vera);
  assertEquals(done.status, 303);
  assertEquals(await bearerStatus(t, raw), 401);
});

Deno.test("password page: errors by field, and a change ends every session and signs out", async () => {
  await using t = await startTestServer();
  await t.addUser("vera", "viewer");
  const first = await t.login("vera", "vera-password-123");
  const second = await t.login("vera", "vera-password-123");
  const path = "/account/password";
  const next = "a-brand-new-password-42";

  const page = await getPage(t, path, first);
  assertEquals(page.status, 200);
  assertStringIncludes(page.html, "ends every session");

  let res = await postForm(t, path, {
    current_password: "wrong-password-000",
    new_password: next,
    repeat_password: next,
  }, first);
  assertEquals(res.status, 422);
  let html = await res.text();
  assertEquals(fieldError(html, "f-current_password"), "Current password is incorrect");
  assert(!html.includes("wrong-password-000"), "passwords are not sent back");

  res = await postForm(t, path, {
    current_password: "vera-password-123",
    new_password: next,
    repeat_password: "something-else-123",
  }, first);
  html = await res.text();
  assertEquals(fieldError(html, "f-repeat_password"), "The two new passwords differ");

  res = await postForm(t, path, {
    current_password: "vera-password-123",
    new_password: "short",
    repeat_password: "short",
  }, first);
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "f-new_password") ?? "", "at least 12");
  assertEquals((await getPage(t, "/", second)).status, 200, "refusals end no session");

  res = await postForm(t, path, {
    current_password: "vera-password-123",
    new_password: next,
    repeat_password: next,
  }, first);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/login?done=password");
  assert(res.headers.getSetCookie().some((c) => c.startsWith("svc_session=;")), "cookie dropped");

  for (const cookie of [first, second]) {
    const gone = await getPage(t, "/tokens", cookie);
    assertEquals(gone.status, 303);
    assertStringIncludes(gone.headers.get("location") ?? "", "/login");
  }
  assertStringIncludes((await getPage(t, "/login?done=password", "")).html, "Password changed");
  await t.login("vera", next);
});
