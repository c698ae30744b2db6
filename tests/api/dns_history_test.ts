/**
 * The zone history on the DNS API (docs/dns.md, "History and revert"): each
 * write path (a record, a batch, a zone file import, the PowerDNS API's
 * PATCH) leaves one change set with its actor and its RRsets before and
 * after; POST …/revert puts one back as a new change set, answers 409 when a
 * later change overlaps and 404 for an unknown change; a scoped key needs
 * the whole-zone write scope to revert and every type and name to read.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi } from "../helpers/dns_api.ts";
import { call, startTestServer, type TestServer } from "../helpers/test_server.ts";

const Z = "example.org";
const PDNS_KEY = "pdns-history-key-0123456789";

interface Change {
  id: number;
  actor: string;
  summary: string;
  reverts: number | null;
  rrsets: { name: string; type: string; before: unknown[]; after: unknown[] }[];
}

async function history(api: DnsApi): Promise<Change[]> {
  const res = await api.get(`/zones/${Z}/history`);
  assertEquals(res.status, 200, JSON.stringify(res.body));
  return res.body.changes as Change[];
}

async function withZone(env: Record<string, string> = {}) {
  const t = await startTestServer({ env });
  const api = await dnsApi(t);
  assertEquals((await api.post("/zones", { name: Z, admin_email: `h@${Z}` })).status, 201);
  return { t, api };
}

function pdnsPatch(t: TestServer, body: unknown) {
  return fetch(`${t.dnsApi}/api/v1/servers/localhost/zones/${Z}.`, {
    method: "PATCH",
    headers: { "X-API-Key": PDNS_KEY },
    body: JSON.stringify(body),
  });
}

Deno.test("every write path leaves one change set with its actor and its RRsets before and after", async () => {
  const { t, api } = await withZone({ PALISADE_PDNS_API_KEY: PDNS_KEY });
  await using _ = t;
  const rec = await api.post(`/zones/${Z}/records`, {
    domain: `www.${Z}`,
    type: "A",
    value: "192.0.2.1",
    ttl: 300,
  });
  assertEquals(rec.status, 201);
  const batch = await api.post(`/zones/${Z}/records/batch`, {
    operations: [
      { operation: "create", domain: `b.${Z}`, type: "TXT", value: "one" },
      { operation: "update", id: rec.body.id, value: "192.0.2.2" },
    ],
  });
  assertEquals(batch.status, 200, JSON.stringify(batch.body));
  const imported = await api.raw(`/zones/${Z}/import`, {
    method: "POST",
    headers: { "content-type": "text/dns" },
    body: `$ORIGIN ${Z}.\nmail 600 IN A 192.0.2.25\n`,
  });
  assertEquals(imported.status, 200, await imported.text());
  const patch = await pdnsPatch(t, {
    rrsets: [{ name: `b.${Z}.`, type: "TXT", changetype: "DELETE" }],
  });
  assertEquals(patch.status, 204, await patch.text());

  const changes = await history(api);
  assertEquals(changes.map((c) => [c.actor, c.summary]), [
    ["pdns-api-key", "PowerDNS API PATCH of 1 RRset"],
    ["admin", "Zone file imported"],
    ["admin", "Batch of 2 operations"],
    ["admin", `Created A record "www.${Z}"`],
  ]);
  assertEquals(changes.map((c) => c.rrsets), [
    [{ name: `b.${Z}`, type: "TXT", before: [{ value: '"one"', ttl: 3600 }], after: [] }],
    [{ name: `mail.${Z}`, type: "A", before: [], after: [{ value: "192.0.2.25", ttl: 600 }] }],
    [
      { name: `b.${Z}`, type: "TXT", before: [], after: [{ value: '"one"', ttl: 3600 }] },
      {
        name: `www.${Z}`,
        type: "A",
        before: [{ value: "192.0.2.1", ttl: 300 }],
        after: [{ value: "192.0.2.2", ttl: 300 }],
      },
    ],
    [{ name: `www.${Z}`, type: "A", before: [], after: [{ value: "192.0.2.1", ttl: 300 }] }],
  ]);
});

Deno.test("POST …/revert puts a change set back as a new one, audited; 409 on overlap, 404 when unknown", async () => {
  const { t, api } = await withZone();
  await using _ = t;
  const rec = await api.post(`/zones/${Z}/records`, {
    domain: `www.${Z}`,
    type: "A",
    value: "192.0.2.1",
  });
  await api.put(`/zones/${Z}/records/${rec.body.id}`, { value: "192.0.2.2" });
  const [second, first] = await history(api);

  const refused = await api.post(`/zones/${Z}/history/${first.id}/revert`);
  assertEquals(refused.status, 409, JSON.stringify(refused.body));
  assertStringIncludes(
    refused.body.error as string,
    `changed A records "www.${Z}" after change ${first.id}`,
  );
  assertEquals((await api.post(`/zones/${Z}/history/999999/revert`)).status, 404);
  assertEquals((await api.post(`/zones/${Z}/history/abc/revert`)).status, 404);

  const ok = await api.post(`/zones/${Z}/history/${second.id}/revert`);
  assertEquals(ok.status, 200, JSON.stringify(ok.body));
  assertEquals(ok.body.reverted, second.id);
  const recs = await api.get(`/zones/${Z}/records?type=A`);
  assertEquals((recs.body.records as { value: string }[]).map((r) => r.value), ["192.0.2.1"]);
  const [revert] = await history(api);
  assertEquals([revert.reverts, revert.summary], [second.id, `Reverted change ${second.id}`]);
  // Reverting it again would undo the revert: refused, the revert is the later change.
  assertEquals((await api.post(`/zones/${Z}/history/${second.id}/revert`)).status, 409);
  // The revert of the revert is allowed: nothing came after it.
  assertEquals((await api.post(`/zones/${Z}/history/${revert.id}/revert`)).status, 200);
  const audit = await auditRows(t, { event_type: "dns.history.reverted" });
  assertEquals(audit.map((a) => a.resource_id), [Z, Z]);
});

Deno.test("a scoped key reads history only with every type and name, and reverts only with the whole-zone write scope", async () => {
  const { t, api } = await withZone();
  await using _ = t;
  await api.post(`/zones/${Z}/records`, {
    domain: `_acme-challenge.${Z}`,
    type: "TXT",
    value: "x",
  });
  const [change] = await history(api);
  const key = async (scope: Record<string, unknown>) => {
    const res = await api.post("/api-keys", { name: `k${Math.random()}`, scope });
    assertEquals(res.status, 201, JSON.stringify(res.body));
    const headers = { "X-API-Key": res.body.key as string };
    const base = `${t.dnsApi}/api/v1/zones/${Z}/history`;
    return {
      get: () => call(base, { headers }),
      revert: (id: number) => call(`${base}/${id}/revert`, { method: "POST", headers, json: {} }),
    };
  };
  const acme = await key({
    zones: [Z],
    types: ["TXT"],
    names: ["_acme-challenge.*"],
    access: "write",
  });
  assertEquals((await acme.get()).status, 403);
  assertEquals((await acme.revert(change.id)).status, 403);
  const reader = await key({ zones: [Z], types: "*", names: "*", access: "read" });
  assertEquals((await reader.get()).status, 200);
  assertEquals((await reader.revert(change.id)).status, 403);
  const writer = await key({ zones: [Z], types: "*", names: "*", access: "write" });
  assertEquals((await writer.revert(change.id)).status, 200);
  assertEquals((await auditRows(t, { event_type: "dns.api_key_refused" })).length, 3);
});
