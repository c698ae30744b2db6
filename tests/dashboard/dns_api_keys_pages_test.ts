/**
 * The DNS API keys page (`/dns-api-keys`, administrators): the ACME-only
 * preset makes a TXT `_acme-challenge.*` write key for the zones given in one
 * click, the key is on that answer only, the list shows scope and use, a
 * refused scope shows next to its field, and revocation asks first.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { call, startTestServer, type TestServer } from "../helpers/test_server.ts";

const keyOf = (html: string) => /<pre id="new-api-key-value">(pdk_[^<]+)<\/pre>/.exec(html)?.[1];

let challenge = 0;

/** The status of creating a TXT record (a new value each time) with `key`. */
async function txt(t: TestServer, key: string, domain: string): Promise<number> {
  const res = await call(`${t.dnsApi}/api/v1/zones/example.org/records`, {
    method: "POST",
    headers: { "X-API-Key": key },
    json: { domain, type: "TXT", value: `challenge-${++challenge}` },
  });
  return res.status;
}

Deno.test("DNS API keys page: the ACME-only preset in one click, the key shown once, listed with its last use, revoked after a confirmation", async () => {
  await using t = await startTestServer();
  await t.services.dns.createZone("test", {
    name: "example.org",
    admin_email: "hostmaster@example.org",
  });
  const admin = await t.login();
  const made = await postForm(t, "/dns-api-keys", {
    name: "lego",
    zones: "example.org",
    // The preset overrides whatever the other scope fields say.
    types: "*",
    names: "*",
    access: "write",
    expires_at: "",
    preset: "acme",
  }, admin);
  assertEquals(made.status, 200);
  const html = await made.text();
  const key = keyOf(html);
  assert(key, "the key is on the answer");
  const [{ id }] = await t.services.dnsApiKeys.list();
  assertStringIncludes(
    rowText(html, "data-key-id", id) ?? "",
    "lego TXT at _acme-challenge.* in example.org, write",
  );
  assertStringIncludes(rowText(html, "data-key-id", id) ?? "", "never never Revoke");
  assertEquals(await txt(t, key, "_acme-challenge.example.org"), 201);
  assertEquals(await txt(t, key, "www.example.org"), 403);

  const later = await getPage(t, "/dns-api-keys", admin);
  assert(!later.html.includes(key), "the key is never shown again");
  const row = rowText(later.html, "data-key-id", id) ?? "";
  assertStringIncludes(row, "TXT at _acme-challenge.* in example.org, write");
  assert(!row.endsWith("never Revoke"), `last use is listed: ${row}`);

  const ask = await getPage(t, `/dns-api-keys/${id}/revoke`, admin);
  assertEquals(ask.status, 200);
  assertStringIncludes(ask.html, "Revoke DNS API key <strong>lego</strong>");
  assertEquals(await txt(t, key, "_acme-challenge.example.org"), 201, "asking revokes nothing");
  const res = await postForm(t, `/dns-api-keys/${id}/revoke`, {}, admin);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/dns-api-keys?done=revoked");
  assertEquals(await txt(t, key, "_acme-challenge.example.org"), 401);
  const after = await getPage(t, "/dns-api-keys?done=revoked", admin);
  assertStringIncludes(after.html, "DNS API key revoked.");
  assertEquals(rowText(after.html, "data-key-id", id), null);
});

Deno.test("DNS API keys page: a refused scope shows next to its field; viewers and operators are refused the page", async () => {
  await using t = await startTestServer();
  const admin = await t.login();
  const res = await postForm(t, "/dns-api-keys", {
    name: "k",
    zones: "missing.example",
    types: "TXT",
    names: "*",
    access: "write",
  }, admin);
  assertEquals(res.status, 404);
  const html = await res.text();
  assertEquals(fieldError(html, "f-zones"), 'Zone "missing.example" does not exist');
  const bad = await postForm(t, "/dns-api-keys", {
    name: "k",
    zones: "*",
    types: "TXT, BOGUS",
    names: "*",
    access: "write",
  }, admin);
  assertEquals(bad.status, 400);
  assertEquals(fieldError(await bad.text(), "f-types"), 'Record type "BOGUS" is not known');
  assertEquals((await t.services.dnsApiKeys.list()).length, 0);
  await t.addUser("olga", "operator");
  const olga = await t.login("olga", "olga-password-123");
  assertEquals((await getPage(t, "/dns-api-keys", olga)).status, 403);
});
