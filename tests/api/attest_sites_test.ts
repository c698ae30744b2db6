/**
 * The attestation site routes of the admin API (docs/attestation_sites.md):
 * creation answers the key and the secret once, listing and reading never
 * show it nor does the audit trail or the event; validation names the field;
 * rotation replaces the secret at once; viewers read, administrators write.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { rawRow } from "../helpers/raw_sql.ts";

const SHOP = { name: "shop", origins: ["https://shop.example"], min_chain: 3, token_ttl_s: 300 };

async function sha256Hex(s: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("POST /attest/sites answers 201 with the site key and the secret once; GET, the audit trail and SiteChanged never hold the secret", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  await using frames = await collectFrames(t.admin, { cookie });
  const created = await api.post("/attest/sites", SHOP);
  assertEquals(created.status, 201);
  const s = created.body;
  assertMatch(s.site_key, /^pk_[0-9a-f]{32}$/);
  assertMatch(s.secret, /^sk_[A-Za-z0-9_-]{43}$/);
  assertEquals(
    [s.name, s.origins, s.min_chain, s.token_ttl_s],
    ["shop", ["https://shop.example"], 3, 300],
  );
  // Stored as its SHA-256 only.
  const row = rawRow<{ secret_hash: string }>(t.store, "attest_sites", ["secret_hash"], {
    id: s.id,
  })!;
  assertEquals(row.secret_hash, await sha256Hex(s.secret));
  const got = await api.get(`/attest/sites/${s.id}`);
  assertEquals(got.status, 200);
  assertEquals("secret" in got.body, false);
  assertEquals(got.body.site_key, s.site_key);
  const list = await api.get("/attest/sites");
  assertEquals(list.body.sites.map((x: { id: string }) => x.id), [s.id]);
  assertEquals(JSON.stringify(list.body).includes(s.secret), false);
  const frame = await frames.waitFor((f) => f.type === "SiteChanged");
  assertEquals(frame.payload, { id: s.id, action: "created" });
  const audit = (await t.services.audit.list({ resource_id: s.id, limit: 10, offset: 0 })).records;
  assertEquals(audit.map((r) => [r.event_type, r.actor]), [["attest_site.created", "admin"]]);
  const everything = JSON.stringify([audit, frames.frames]);
  assertEquals(everything.includes(s.secret), false);
  assertEquals(everything.includes(s.secret.slice(3)), false);
});

Deno.test("POST /attest/sites answers 400 naming the field for a bad name, non-canonical or non-https origins and out-of-range numbers; 409 for a taken name", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  // The error names the field and quotes the value; the canonical form when that is the fault.
  const cases: [Record<string, unknown>, string][] = [
    [{ ...SHOP, name: "" }, 'name ""'],
    [{ ...SHOP, name: "a/b" }, 'name "a/b"'],
    [{ ...SHOP, origins: [] }, '"origins"'],
    [
      { ...SHOP, origins: ["https://shop.example/"] },
      'origins[0] "https://shop.example/" is not canonical: write "https://shop.example"',
    ],
    [{ ...SHOP, origins: ["https://shop.example/path"] }, 'write "https://shop.example"'],
    [
      { ...SHOP, origins: ["https://shop.example", "http://shop.example"] },
      'origins[1] "http://shop.example" must use https',
    ],
    [
      { ...SHOP, origins: ["https://Shop.example"] },
      'origins[0] "https://Shop.example" is not canonical',
    ],
    [
      { ...SHOP, origins: ["https://shop.example:443"] },
      'origins[0] "https://shop.example:443" is not canonical',
    ],
    [{ ...SHOP, origins: ["shop.example"] }, 'origins[0] "shop.example" is not an origin'],
    [{ ...SHOP, min_chain: 0 }, "min_chain"],
    [{ ...SHOP, min_chain: 1001 }, "min_chain"],
    [{ ...SHOP, token_ttl_s: 9 }, "token_ttl_s"],
    [{ ...SHOP, token_ttl_s: 3601 }, "token_ttl_s"],
  ];
  for (const [body, field] of cases) {
    const r = await api.post("/attest/sites", body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assertStringIncludes(r.body.error, field, JSON.stringify(body));
  }
  const local = await api.post("/attest/sites", {
    name: "dev",
    origins: ["http://localhost:3000", "https://shop.example:8443", "http://localhost:3000"],
  });
  assertEquals(local.status, 201);
  // Listed twice is kept once.
  assertEquals(local.body.origins, ["http://localhost:3000", "https://shop.example:8443"]);
  assertEquals([local.body.min_chain, local.body.token_ttl_s], [3, 300]);
  const again = await api.post("/attest/sites", { ...SHOP, name: "dev" });
  assertEquals(again.status, 409);
  assertStringIncludes(again.body.error, 'name "dev" is already used');
});

Deno.test("PUT /attest/sites/{id} changes name and origins but keeps key and secret; rotate-secret answers a new secret and the old one stops authenticating at once; DELETE removes it", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const s = (await api.post("/attest/sites", SHOP)).body;
  const sites = t.services.attestSites;
  assertEquals((await sites.authenticate(s.secret))?.id, s.id);
  const put = await api.put(`/attest/sites/${s.id}`, {
    name: "shop2",
    origins: ["https://shop.example", "https://www.shop.example"],
    min_chain: 5,
    token_ttl_s: 60,
  });
  assertEquals(put.status, 200);
  assertEquals(
    [put.body.name, put.body.origins.length, put.body.min_chain, put.body.site_key],
    ["shop2", 2, 5, s.site_key],
  );
  assertEquals((await sites.authenticate(s.secret))?.id, s.id);
  const rotated = await api.post(`/attest/sites/${s.id}/rotate-secret`, {});
  assertEquals(rotated.status, 200);
  assertMatch(rotated.body.secret, /^sk_[A-Za-z0-9_-]{43}$/);
  assert(rotated.body.secret !== s.secret);
  assertEquals(await sites.authenticate(s.secret), null);
  assertEquals((await sites.authenticate(rotated.body.secret))?.id, s.id);
  assertEquals(await sites.authenticate("sk_" + "A".repeat(43)), null);
  const audit = (await t.services.audit.list({ resource_id: s.id, limit: 10, offset: 0 })).records;
  assertEquals(JSON.stringify(audit).includes(rotated.body.secret), false);
  assertEquals((await api.del(`/attest/sites/${s.id}`)).status, 200);
  assertEquals((await api.get(`/attest/sites/${s.id}`)).status, 404);
  assertEquals(await sites.authenticate(rotated.body.secret), null);
});

Deno.test("a viewer lists and reads sites but gets 403 on every write; an operator too", async () => {
  await using t = await startTestServer();
  const admin = apiClient(t.admin, { cookie: await t.login() });
  const s = (await admin.post("/attest/sites", SHOP)).body;
  await t.addUser("vera", "viewer", "vera-password-123");
  await t.addUser("otto", "operator", "otto-password-123");
  for (const who of ["vera", "otto"]) {
    const api = apiClient(t.admin, { cookie: await t.login(who, `${who}-password-123`) });
    assertEquals((await api.get("/attest/sites")).status, 200);
    const one = await api.get(`/attest/sites/${s.id}`);
    assertEquals([one.status, "secret" in one.body], [200, false]);
    assertEquals((await api.post("/attest/sites", { ...SHOP, name: "x" })).status, 403, who);
    assertEquals((await api.put(`/attest/sites/${s.id}`, SHOP)).status, 403, who);
    assertEquals((await api.post(`/attest/sites/${s.id}/rotate-secret`, {})).status, 403, who);
    assertEquals((await api.del(`/attest/sites/${s.id}`)).status, 403, who);
  }
  assertEquals((await admin.get("/attest/sites")).body.sites.length, 1);
});
