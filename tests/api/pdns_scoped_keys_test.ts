/**
 * Scoped API keys on the PowerDNS-compatible API (docs/dns.md, "API keys"):
 * a key sees only its zones and RRsets, writes only what its scope names,
 * may ask for a NOTIFY of a zone it writes in, and every refusal is a 403
 * `{"error"}` with an audit record naming the key (never the key itself).
 */
import { assert, assertEquals } from "../assert.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

const Z = "/api/v1/servers/localhost/zones";

function pdns(t: TestServer, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.dnsApi}${path}`, {
      method,
      headers: { "X-API-Key": key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

const txt = (name: string, content: string) => ({
  rrsets: [{
    name,
    type: "TXT",
    ttl: 60,
    changetype: "REPLACE",
    records: [{ content: `"${content}"`, disabled: false }],
  }],
});

Deno.test("a scoped key on the PowerDNS API: its zones and RRsets only, its writes only, refusals audited", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  for (const name of ["a.example", "b.example"]) {
    assertEquals((await api.post("/zones", { name, admin_email: `h@${name}` })).status, 201);
  }
  await api.post("/zones/a.example/records", {
    domain: "www.a.example",
    type: "A",
    value: "192.0.2.1",
  });
  const made = await api.post("/api-keys", {
    name: "acme",
    scope: { zones: ["a.example"], types: ["TXT"], names: ["_acme-challenge.*"], access: "write" },
  });
  assertEquals(made.status, 201);
  const key = made.body.key as string;
  const call = pdns(t, key);

  const zones = await call("GET", Z);
  assertEquals(zones.status, 200);
  assertEquals(zones.body.map((z: { name: string }) => z.name), ["a.example."]);
  const zone = await call("GET", `${Z}/a.example.`);
  assertEquals(zone.status, 200);
  assertEquals(zone.body.rrsets, [], "no A or NS RRset of the zone is the key's");

  assertEquals(
    (await call("PATCH", `${Z}/a.example.`, txt("_acme-challenge.a.example.", "t1"))).status,
    204,
  );
  assertEquals((await call("PUT", `${Z}/a.example./notify`)).status, 200);
  const refused = [
    await call("PATCH", `${Z}/a.example.`, txt("www.a.example.", "no")),
    await call("PATCH", `${Z}/b.example.`, txt("_acme-challenge.b.example.", "no")),
    await call("DELETE", `${Z}/a.example.`),
    await call("POST", Z, { name: "c.example.", kind: "Native", nameservers: [] }),
  ];
  for (const r of refused) {
    assertEquals(r.status, 403, JSON.stringify(r.body));
    assertEquals(Object.keys(r.body), ["error"]);
  }
  const audit = await t.services.audit.list({ event_type: "dns.api_key_refused", limit: 20 });
  assertEquals(audit.total, refused.length);
  for (const rec of audit.records) {
    assertEquals(rec.actor, "api-key:acme");
    assert(!rec.message.includes(key), "the key is never in the audit");
  }
  const records = await api.get("/zones/a.example/records?type=TXT");
  assertEquals((records.body.records as { domain: string }[]).map((r) => r.domain), [
    "_acme-challenge.a.example",
  ]);

  const readOnly = await api.post("/api-keys", {
    name: "reader",
    scope: { zones: ["a.example"], types: "*", names: "*", access: "read" },
  });
  const read = pdns(t, readOnly.body.key as string);
  assertEquals((await read("GET", `${Z}/a.example.`)).status, 200);
  assertEquals((await read("PUT", `${Z}/a.example./notify`)).status, 403);
  assertEquals(
    (await read("PATCH", `${Z}/a.example.`, txt("_acme-challenge.a.example.", "x"))).status,
    403,
  );
});
