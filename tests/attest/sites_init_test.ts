/**
 * /init with a site key (docs/attestation_sites.md): an unknown key is 400,
 * an Origin that is not the site's is 403 and counted, a good one makes a
 * session remembering its site; CORS answers a site's origin; heartbeats are
 * counted per site by their Origin in /metrics; and threads started before a
 * site was registered see it on their next request.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { AttestClient } from "../../lib/attest/client.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { siteTransport } from "../helpers/site_tokens.ts";

const KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"; // RFC 8032 test 1
const SHOP = "https://shop.example";

async function addSite(t: TestServer, origins = [SHOP]) {
  const api = apiClient(t.admin, { cookie: await t.login() });
  const r = await api.post("/attest/sites", { name: "shop", origins });
  assertEquals(r.status, 201);
  return r.body as { id: string; site_key: string };
}

async function init(base: string, siteKey: string | null, origin: string | null) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (origin) headers.Origin = origin;
  const q = siteKey === null ? "" : `?site_key=${encodeURIComponent(siteKey)}`;
  const res = await fetch(`${base}/init${q}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ public_key: KEY }),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

function metric(text: string, line: string): number | undefined {
  const hit = text.split("\n").find((l) => l.startsWith(line + " "));
  return hit === undefined ? undefined : Number(hit.slice(line.length + 1));
}

Deno.test("POST /init?site_key= answers 400 for an unknown key, 403 (counted) for an Origin not the site's, and a session with the site's id from its origin", async () => {
  await using t = await startTestServer();
  const site = await addSite(t);
  const unknown = await init(t.attest, "pk_" + "0".repeat(32), SHOP);
  assertEquals(unknown.status, 400);
  assertEquals(unknown.json.status, 400);
  assertStringIncludes(unknown.json.error, "site key");
  const other = await init(t.attest, site.site_key, "https://evil.example");
  assertEquals([other.status, other.json.status], [403, 403]);
  assertEquals((await init(t.attest, site.site_key, null)).status, 403);
  const ok = await init(t.attest, site.site_key, SHOP);
  assertEquals(ok.status, 200);
  const row = rawRow<{ site_id: string | null }>(t.store, "attest_sessions", [
    "site_id",
  ], { session_id: ok.json.session_id });
  assertEquals(row?.site_id, site.id);
  assertEquals(await t.services.attestSites.siteOfSession(ok.json.session_id), site.id);
  // Without a site key: today's behaviour, no site.
  const plain = await init(t.attest, null, null);
  assertEquals(plain.status, 200);
  assertEquals(await t.services.attestSites.siteOfSession(plain.json.session_id), null);
  const m = await (await fetch(`${t.attest}/metrics`)).text();
  const label = `{site="${site.site_key}"}`;
  assertEquals(metric(m, `attest_site_sessions_created_total${label}`), 1);
  assertEquals(metric(m, `attest_site_init_refused_total${label}`), 2);
  assertEquals(metric(m, "attest_sessions_created_total"), 2);
});

Deno.test("the CORS preflight answers a registered site's origin that PALISADE_ATTEST_ALLOWED_ORIGINS does not list, and stops once the site is deleted", async () => {
  await using t = await startTestServer({
    env: { PALISADE_ATTEST_ALLOWED_ORIGINS: "https://listed.example" },
  });
  const preflight = async (origin: string) => {
    const res = await fetch(`${t.attest}/init`, {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
    });
    await res.body?.cancel();
    return res.headers.get("access-control-allow-origin");
  };
  assertEquals(await preflight(SHOP), null);
  const site = await addSite(t);
  assertEquals(await preflight(SHOP), SHOP);
  assertEquals(await preflight("https://listed.example"), "https://listed.example");
  assertEquals(await preflight("https://evil.example"), null);
  const api = apiClient(t.admin, { cookie: await t.login() });
  assertEquals((await api.del(`/attest/sites/${site.id}`)).status, 200);
  assertEquals(await preflight(SHOP), null);
});

Deno.test("heartbeats are counted per site by their Origin in /metrics: accepted and rejected by reason", async () => {
  await using rig = await startAttestRig();
  const site = await addSite(rig.t);
  const core = await loadCore();
  const c = new AttestClient(
    core,
    siteTransport(rig.t.attest, site.site_key, SHOP),
    () => rig.clock.now(),
  );
  await c.init();
  for (let i = 0; i < 2; i++) {
    rig.clock.advance(2500);
    assertEquals(await c.heartbeat(), true);
  }
  // Unknown session from the site's page, and one from elsewhere (not the site's).
  for (const origin of [SHOP, "https://evil.example"]) {
    rig.clock.advance(2500);
    const req = { ...c.prepareHeartbeat().request, session_id: "ab".repeat(32) };
    const res = await fetch(`${rig.t.attest}/hb`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify(req),
    });
    await res.body?.cancel();
  }
  const m = await rig.metrics();
  const label = `site="${site.site_key}"`;
  assertEquals(metric(m, `attest_site_heartbeats_accepted_total{${label}}`), 2);
  assertEquals(
    metric(m, `attest_site_heartbeats_rejected_total{${label},reason="unknown_session"}`),
    1,
  );
  assertEquals(metric(m, "attest_heartbeats_accepted_total"), 2);
  assertEquals(metric(m, 'attest_heartbeats_rejected_total{reason="unknown_session"}'), 2);
});

Deno.test("attestation threads started before a site was registered accept its key on their next /init, and refuse it once deleted", async () => {
  await using t = await startTestServer({ env: { PALISADE_ATTEST_WORKERS: "2" } });
  // Every thread has loaded the (empty) site list.
  for (let i = 0; i < 6; i++) assertEquals((await init(t.attest, null, null)).status, 200);
  const site = await addSite(t);
  for (let i = 0; i < 6; i++) {
    assertEquals((await init(t.attest, site.site_key, SHOP)).status, 200);
  }
  const api = apiClient(t.admin, { cookie: await t.login() });
  assertEquals((await api.del(`/attest/sites/${site.id}`)).status, 200);
  for (let i = 0; i < 6; i++) {
    assertEquals((await init(t.attest, site.site_key, SHOP)).status, 400);
  }
});

Deno.test("a restore that brings back a deleted site makes the attestation threads accept its key again", async () => {
  await using t = await startTestServer({ env: { PALISADE_ATTEST_WORKERS: "2" } });
  const site = await addSite(t);
  const api = apiClient(t.admin, { cookie: await t.login() });
  const backup = await api.post("/backups/create", {});
  assertEquals(backup.status, 201);
  assertEquals((await api.del(`/attest/sites/${site.id}`)).status, 200);
  for (let i = 0; i < 4; i++) {
    assertEquals((await init(t.attest, site.site_key, SHOP)).status, 400);
  }
  assertEquals((await api.post(`/backups/${backup.body.id}/restore`)).status, 200);
  for (let i = 0; i < 6; i++) {
    assertEquals((await init(t.attest, site.site_key, SHOP)).status, 200);
  }
});
