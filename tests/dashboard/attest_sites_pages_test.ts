/**
 * The attestation sites pages without a browser: a site registered from the
 * form shows its secret on that answer only, with a copy button; refusals
 * sit next to their field; the list shows per-site figures; rotation asks
 * first and shows the new secret once; deletion asks first; viewers see the
 * list but no form and get 403 on every change.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const SECRET = /<pre id="site-secret-value">(sk_[A-Za-z0-9_-]{43})<\/pre>/;

Deno.test("sites page: register from the form (secret once, with a copy button), refusals next to the field, figures per site, edit", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const form = { name: "shop", origins: "https://shop.example/", min_chain: "", token_ttl_s: "" };
  let res = await postForm(t, "/attestation/sites", form, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(
    fieldError(await res.text(), "f-origins") ?? "",
    'is not canonical: write "https://shop.example"',
  );
  res = await postForm(t, "/attestation/sites", {
    ...form,
    origins: "https://shop.example",
    min_chain: "0",
  }, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "f-min_chain") ?? "", "min_chain 0");

  res = await postForm(t, "/attestation/sites", {
    ...form,
    origins: "https://shop.example\nhttps://www.shop.example",
  }, cookie);
  assertEquals(res.status, 200);
  let html = await res.text();
  const secret = SECRET.exec(html)?.[1];
  assert(secret, "the secret is on the answer");
  assertStringIncludes(html, "Copy secret");
  const site = (await t.services.attestSites.list())[0];
  assertEquals((await t.services.attestSites.authenticate(secret))?.id, site.id);

  // Figures: one session created from the site's origin.
  const init = await fetch(`${t.attest}/init?site_key=${site.site_key}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://www.shop.example" },
    body: JSON.stringify({
      public_key: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    }),
  });
  assertEquals(init.status, 200);
  await init.body?.cancel();
  html = (await getPage(t, "/attestation/sites", cookie)).html;
  assertEquals(SECRET.test(html), false, "the list never shows the secret");
  assertEquals(html.includes(secret), false);
  assertEquals(
    rowText(html, "data-site-id", site.id),
    `shop ${site.site_key} https://shop.example, https://www.shop.example 1 0 0 0 0 0 0 0`,
  );

  res = await postForm(t, `/attestation/sites/${site.id}`, {
    name: "shop2",
    origins: "https://shop.example",
    min_chain: "5",
    token_ttl_s: "60",
  }, cookie);
  assertEquals([res.status, res.headers.get("location")], [
    303,
    `/attestation/sites/${site.id}?done=updated`,
  ]);
  html = (await getPage(t, `/attestation/sites/${site.id}?done=updated`, cookie)).html;
  assertStringIncludes(html, "Site saved.");
  assertStringIncludes(html, "60 s");
  assertEquals(html.includes(secret), false);
});

Deno.test("site pages: rotation asks, then shows the new secret once and the old one stops; deletion asks, then the site is gone", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const s = await t.services.attestSites.create(
    { name: "shop", origins: ["https://shop.example"] },
    "t",
  );
  let page = await getPage(t, `/attestation/sites/${s.id}/rotate`, cookie);
  assertEquals(page.status, 200);
  assertStringIncludes(page.html, "Give site <strong>shop</strong> a new secret?");
  assertEquals(
    (await t.services.attestSites.authenticate(s.secret))?.id,
    s.id,
    "asking changes nothing",
  );
  const res = await postForm(t, `/attestation/sites/${s.id}/rotate`, {}, cookie);
  assertEquals(res.status, 200);
  const html = await res.text();
  const secret = SECRET.exec(html)?.[1];
  assert(secret && secret !== s.secret);
  assertStringIncludes(html, "Copy secret");
  assertEquals(await t.services.attestSites.authenticate(s.secret), null);
  assertEquals((await t.services.attestSites.authenticate(secret))?.id, s.id);

  page = await getPage(t, `/attestation/sites/${s.id}/delete`, cookie);
  assertStringIncludes(page.html, "Delete site <strong>shop</strong>");
  const del = await postForm(t, `/attestation/sites/${s.id}/delete`, {}, cookie);
  assertEquals([del.status, del.headers.get("location")], [303, "/attestation/sites?done=deleted"]);
  assertEquals(await t.services.attestSites.list(), []);
});

Deno.test("sites pages for a viewer: the list and a site without forms or actions; 403 on register, edit, rotate and delete", async () => {
  await using t = await startTestServer();
  const s = await t.services.attestSites.create(
    { name: "shop", origins: ["https://shop.example"] },
    "t",
  );
  await t.addUser("vera", "viewer", "vera-password-123");
  const cookie = await t.login("vera", "vera-password-123");
  const list = await getPage(t, "/attestation/sites", cookie);
  assertEquals(list.status, 200);
  assertStringIncludes(list.html, s.site_key);
  assertEquals(list.html.includes("Register site"), false);
  const one = await getPage(t, `/attestation/sites/${s.id}`, cookie);
  assertEquals(one.status, 200);
  assertEquals(one.html.includes("Rotate secret"), false);
  const form = { name: "x", origins: "https://x.example", min_chain: "", token_ttl_s: "" };
  assertEquals((await postForm(t, "/attestation/sites", form, cookie)).status, 403);
  assertEquals((await postForm(t, `/attestation/sites/${s.id}`, form, cookie)).status, 403);
  assertEquals((await postForm(t, `/attestation/sites/${s.id}/rotate`, {}, cookie)).status, 403);
  assertEquals((await postForm(t, `/attestation/sites/${s.id}/delete`, {}, cookie)).status, 403);
  assertEquals((await t.services.attestSites.authenticate(s.secret))?.id, s.id);
});
