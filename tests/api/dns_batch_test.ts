/**
 * `POST /zones/{name}/records/batch`: every operation in one transaction with
 * one serial bump, or none of them, with a result per operation either way.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const Z = "/zones/example.com";

async function setup(t: TestServer): Promise<{ api: DnsApi; a: string; txt: string }> {
  const api = await dnsApi(t);
  const zone = await api.post("/zones", {
    name: "example.com",
    admin_email: "hostmaster@example.com",
    nameservers: ["ns1.example.com"],
  });
  assertEquals(zone.status, 201);
  const a = await api.post(`${Z}/records`, {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  const txt = await api.post(`${Z}/records`, {
    domain: "example.com",
    type: "TXT",
    value: "keep me",
  });
  return { api, a: a.body.id as string, txt: txt.body.id as string };
}

Deno.test("POST /zones/{name}/records/batch applies every operation with one serial bump", async () => {
  await using t = await startTestServer();
  const { api, a, txt } = await setup(t);
  await using events = await watchEvents(t);
  const serial = (await api.get(Z)).body.serial as number;
  const auditBefore = (await auditRows(t, { resource_type: "dns_record" })).length;

  const res = await api.post(`${Z}/records/batch`, {
    operations: [
      { operation: "create", domain: "api.example.com", type: "A", value: "192.0.2.7", ttl: 60 },
      { operation: "update", id: a, value: "192.0.2.2" },
      { operation: "delete", id: txt },
    ],
  });
  assertEquals(res.status, 200, JSON.stringify(res.body));
  const results = res.body.results as { operation: string; id: string; status: string }[];
  assertEquals(res.body.success, true);
  assertMatch(results[0].id, /^[0-9a-f-]{36}$/);
  assertEquals(results, [
    { operation: "create", id: results[0].id, status: "created" },
    { operation: "update", id: a, status: "updated" },
    { operation: "delete", id: txt, status: "deleted" },
  ]);
  const after = (await api.get(Z)).body.serial as number;
  assertEquals(after, serial + 1);
  assertEquals((await api.get(`${Z}/records/${results[0].id}`)).body.value, "192.0.2.7");
  assertEquals((await api.get(`${Z}/records/${a}`)).body.value, "192.0.2.2");
  assertEquals((await api.get(`${Z}/records/${txt}`)).status, 404);

  const change = await events.waitFor((f) => f.type === "ZoneChanged");
  assertEquals(change.payload, { zone: "example.com", action: "batch", serial: after });
  assertEquals(events.frames.filter((f) => f.type === "ZoneChanged").length, 1);
  const audit = (await auditRows(t, { resource_type: "dns_record" })).slice(auditBefore);
  assertEquals(audit.map((r) => r.event_type), [
    "dns.record.created",
    "dns.record.updated",
    "dns.record.deleted",
  ]);

  if (haveSystem("batch answered by the DNS listener", ["dig"])) {
    assertEquals((await dig(t.dns.port, ["api.example.com", "A"])).answer, [
      "api.example.com. 60 IN A 192.0.2.7",
    ]);
    assertEquals((await dig(t.dns.port, ["www.example.com", "A"])).answer, [
      "www.example.com. 3600 IN A 192.0.2.2",
    ]);
  }
});

Deno.test("POST /zones/{name}/records/batch applies nothing when one operation fails", async () => {
  await using t = await startTestServer();
  const { api, a, txt } = await setup(t);
  const recordsBefore = (await api.get(`${Z}/records`)).body;
  const zoneBefore = (await api.get(Z)).body;
  const auditBefore = (await auditRows(t)).length;
  await using events = await watchEvents(t);

  const res = await api.post(`${Z}/records/batch`, {
    operations: [
      { operation: "create", domain: "new.example.com", type: "A", value: "192.0.2.9" },
      { operation: "update", id: a, value: "192.0.2.3" },
      { operation: "create", domain: "bad.example.com", type: "A", value: "192.0.2.300" },
      { operation: "delete", id: txt },
    ],
  });
  assertEquals(res.status, 400, JSON.stringify(res.body));
  assertEquals(Object.keys(res.body).sort(), ["error", "results", "status", "success"]);
  assertEquals(res.body.status, 400);
  assertEquals(res.body.success, false);
  assertMatch(res.body.error as string, /^Operation 3 of 4 failed: /);
  const results = res.body.results as Record<string, string>[];
  assertEquals(results.map((r) => [r.operation, r.status]), [
    ["create", "rolled_back"],
    ["update", "rolled_back"],
    ["create", "failed"],
    ["delete", "skipped"],
  ]);
  assertEquals([results[1].id, results[3].id], [a, txt]);
  assertEquals(typeof results[2].error, "string");
  assert((res.body.error as string).endsWith(results[2].error));

  // Nothing applied: same records, same serial, no audit rows, no ZoneChanged.
  assertEquals((await api.get(`${Z}/records`)).body, recordsBefore);
  assertEquals((await api.get(Z)).body, zoneBefore);
  assertEquals((await auditRows(t)).length, auditBefore);
  if (haveSystem("failed batch not answered by the DNS listener", ["dig"])) {
    assertEquals((await dig(t.dns.port, ["new.example.com", "A"])).status, "NXDOMAIN");
    assertEquals((await dig(t.dns.port, ["www.example.com", "A"])).answer, [
      "www.example.com. 3600 IN A 192.0.2.1",
    ]);
  }

  // The status follows the failed operation's error, through the one mapping.
  const cases: [number, unknown[]][] = [
    [404, [{ operation: "delete", id: txt }, { operation: "update", id: "no-such-id", ttl: 5 }]],
    [409, [
      { operation: "create", domain: "d.example.com", type: "A", value: "192.0.2.5" },
      { operation: "create", domain: "d.example.com", type: "A", value: "192.0.2.5" },
    ]],
    [409, [
      { operation: "create", domain: "c.example.com", type: "A", value: "192.0.2.5" },
      { operation: "create", domain: "c.example.com", type: "CNAME", value: "www.example.com" },
    ]],
    [422, [
      { operation: "delete", id: txt },
      { operation: "create", domain: "www.example.org", type: "A", value: "192.0.2.5" },
    ]],
    [400, [{ operation: "update", id: a }]],
  ];
  for (const [status, operations] of cases) {
    const r = await api.post(`${Z}/records/batch`, { operations });
    assertEquals(r.status, status, JSON.stringify(r.body));
    assertEquals(r.body.status, status);
    assertEquals(r.body.success, false);
    assertEquals((r.body.results as unknown[]).length, operations.length);
  }
  assertEquals((await api.get(`${Z}/records`)).body, recordsBefore);
  assertEquals((await api.get(Z)).body.serial, zoneBefore.serial);
  // The failed deletion of `txt` above was rolled back with its batch.
  assertEquals((await api.get(`${Z}/records/${txt}`)).status, 200);
  // Events go out in order: once a later change's ZoneChanged is here, one of any failed batch
  // above would be here before it.
  const later = await api.post(`${Z}/records/batch`, {
    operations: [{
      operation: "create",
      domain: "later.example.com",
      type: "A",
      value: "192.0.2.8",
    }],
  });
  assertEquals(later.status, 200, JSON.stringify(later.body));
  await events.waitFor((f) => f.type === "ZoneChanged");
  assertEquals(events.frames.filter((f) => f.type === "ZoneChanged").map((f) => f.payload), [
    { zone: "example.com", action: "batch", serial: (await api.get(Z)).body.serial },
  ]);
});

Deno.test("POST /zones/{name}/records/batch refuses a malformed request before any operation runs", async () => {
  await using t = await startTestServer();
  const { api, a } = await setup(t);
  const serial = (await api.get(Z)).body.serial;
  const malformed: [unknown, RegExp][] = [
    [{ operations: [] }, /"operations"/],
    [{}, /^Missing field "operations"/],
    [{ operations: [{ operation: "upsert", id: a }] }, /operations\.0/],
    [{ operations: [{ operation: "update", id: a, ttl: "60" }] }, /"operations\.0\.ttl"/],
    [{ operations: [{ operation: "delete" }] }, /"operations\.0\.id"/],
    [
      { operations: Array.from({ length: 1001 }, () => ({ operation: "delete", id: a })) },
      /"operations"/,
    ],
  ];
  for (const [body, said] of malformed) {
    const r = await api.post(`${Z}/records/batch`, body);
    assertEquals(r.status, 400, JSON.stringify(r.body));
    assertEquals(Object.keys(r.body).sort(), ["error", "status"]);
    assertMatch(r.body.error as string, said);
  }
  const unknown = await api.post("/zones/nothere.example/records/batch", {
    operations: [{ operation: "delete", id: a }],
  });
  assertEquals(unknown.status, 404);
  assertEquals((await api.get(Z)).body.serial, serial);
});
