/**
 * Scoped DNS API keys on Palisade's DNS API (docs/dns.md, "API keys"):
 * the key shown once and only its hash stored, each scope dimension (zone,
 * type, name pattern, read-only) with a refusal, expiry and revocation, keys
 * refused on the administrators' routes, and every refusal audited.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { auditRows, type DnsApi, dnsApi } from "../helpers/dns_api.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { call, startTestServer, type TestServer } from "../helpers/test_server.ts";

const ACME = { types: ["TXT"], names: ["_acme-challenge.*"], access: "write" };
const ALL = { zones: "*", types: "*", names: "*", access: "write" };

async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function zone(api: DnsApi, name: string): Promise<void> {
  const res = await api.post("/zones", { name, admin_email: `hostmaster@${name}` });
  assertEquals(res.status, 201, JSON.stringify(res.body));
}

async function newKey(api: DnsApi, body: Record<string, unknown>) {
  const res = await api.post("/api-keys", body);
  assertEquals(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; key: string; name: string };
}

/** A client of `/api/v1` sending `key` as X-API-Key (or as the bearer). */
function withKey(t: TestServer, key: string, bearer = false) {
  const headers: Record<string, string> = bearer
    ? { Authorization: `Bearer ${key}` }
    : { "X-API-Key": key };
  const base = `${t.dnsApi}/api/v1`;
  return {
    get: (path: string) => call(`${base}${path}`, { headers }),
    post: (path: string, json: unknown) =>
      call(`${base}${path}`, { method: "POST", headers, json }),
    put: (path: string, json: unknown) => call(`${base}${path}`, { method: "PUT", headers, json }),
    del: (path: string) => call(`${base}${path}`, { method: "DELETE", headers }),
  };
}

async function refusals(t: TestServer) {
  return await auditRows(t, { event_type: "dns.api_key_refused" });
}

Deno.test("an API key is shown once at creation, only its SHA-256 is stored, and listings never carry it", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "a.example");
  const created = await newKey(api, { name: "acme", scope: { zones: ["A.example."], ...ACME } });
  assertMatch(created.key, /^pdk_[A-Za-z0-9_-]{43}$/);
  assertEquals(created.name, "acme");
  assertEquals((created as unknown as { scope: unknown }).scope, {
    zones: ["a.example"],
    ...ACME,
  });
  const row = rawRow<{ key_hash: string; scope: string; created_by: string }>(
    t.store,
    "dns_api_keys",
    ["key_hash", "scope", "created_by"],
    { id: created.id },
  );
  assertEquals(row?.key_hash, await sha256Hex(created.key));
  assertEquals(row?.created_by, "admin");
  const dump = JSON.stringify(t.store.all("SELECT * FROM dns_api_keys"));
  assert(!dump.includes(created.key.slice(4)), "the raw key is not in the table");
  const list = await api.get("/api-keys");
  assertEquals(list.status, 200);
  const text = JSON.stringify(list.body);
  assert(!text.includes(created.key) && !text.includes(row!.key_hash), text);
  assertEquals((list.body.api_keys as { id: string }[]).map((k) => k.id), [created.id]);
  const audit = await auditRows(t, { event_type: "dns.api_key_created" });
  assertEquals(audit.length, 1);
  assert(!JSON.stringify(audit).includes(created.key), "the audit never holds the key");
});

Deno.test("creation checks the scope: unknown types, bad patterns and missing zones name their field", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "a.example");
  const bad = async (scope: Record<string, unknown>, field: string) => {
    const res = await api.post("/api-keys", { name: "k", scope: { ...ALL, ...scope } });
    assert(res.status === 400 || res.status === 404, JSON.stringify(res.body));
    const err = await assertRejects(() =>
      t.services.dnsApiKeys.create("admin", { name: "k", scope: { ...ALL, ...scope } as never })
    );
    assertEquals((err as { field?: string }).field, field);
  };
  await bad({ types: ["TXT", "NOPE"] }, "scope.types[1]");
  await bad({ names: ["bad..name"] }, "scope.names[0]");
  await bad({ zones: ["a.example", "b.example"] }, "scope.zones[1]");
  assertEquals((await api.get("/api-keys")).body.api_keys, []);
});

Deno.test("zone, type and name pattern each refuse what the key leaves out, with 403 and an audit record", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "a.example");
  await zone(api, "b.example");
  const { key } = await newKey(api, { name: "acme-a", scope: { zones: ["a.example"], ...ACME } });
  const k = withKey(t, key);
  const txt = (domain: string) => ({ domain, type: "TXT", value: "token" });
  const ok = await k.post("/zones/a.example/records", txt("_acme-challenge.a.example"));
  assertEquals(ok.status, 201, JSON.stringify(ok.body));
  const deep = await k.post("/zones/a.example/records", txt("_acme-challenge.www.a.example"));
  assertEquals(deep.status, 201, JSON.stringify(deep.body));

  const zoneOut = await k.post("/zones/b.example/records", txt("_acme-challenge.b.example"));
  const typeOut = await k.post("/zones/a.example/records", {
    domain: "_acme-challenge.a.example",
    type: "A",
    value: "192.0.2.1",
  });
  const nameOut = await k.post("/zones/a.example/records", txt("www.a.example"));
  for (const r of [zoneOut, typeOut, nameOut]) {
    assertEquals(r.status, 403, JSON.stringify(r.body));
    assertEquals([r.body.status, typeof r.body.error], [403, "string"]);
  }
  assertEquals((await k.get("/zones/b.example")).status, 403);
  // A listing of the zone's every record needs every type and name; a record of its own is readable.
  assertEquals((await k.get("/zones/a.example/records")).status, 403);
  assertEquals((await k.get(`/zones/a.example/records/${ok.body.id}`)).status, 200);
  // The zone listing shows the key's zones only.
  const zones = await k.get("/zones");
  assertEquals((zones.body.zones as { name: string }[]).map((z) => z.name), ["a.example"]);
  // Changing the zone itself needs an unrestricted scope.
  assertEquals((await k.put("/zones/a.example", { refresh: 7200 })).status, 403);
  assertEquals((await k.del("/zones/a.example")).status, 403);
  assertEquals((await k.del(`/zones/a.example/records/${ok.body.id}`)).status, 200);

  const records = await refusals(t);
  assertEquals(records.length, 7);
  for (const r of records) {
    assertEquals(r.actor, "api-key:acme-a");
    assert(!r.message.includes(key), "the audit never holds the key");
  }
  assertMatch(records[0].message, /b\.example/);
  assertMatch(records[1].message, /\bA records/);
  assertMatch(records[2].message, /www\.a\.example/);
});

Deno.test("a read-only key reads its zone and is refused every write", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "a.example");
  const { key } = await newKey(api, {
    name: "reader",
    scope: { zones: ["a.example"], types: "*", names: "*", access: "read" },
  });
  const k = withKey(t, key, true);
  assertEquals((await k.get("/zones/a.example")).status, 200);
  assertEquals((await k.get("/zones/a.example/records")).status, 200);
  const write = await k.post("/zones/a.example/records", {
    domain: "www.a.example",
    type: "A",
    value: "192.0.2.1",
  });
  assertEquals(write.status, 403, JSON.stringify(write.body));
  assertEquals((await refusals(t)).length, 1);
});

Deno.test("an expired key and a revoked key are refused with 401", async () => {
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({ clock });
  const api = await dnsApi(t);
  await zone(api, "a.example");
  const expires = new Date(clock.now() + 3600_000).toISOString();
  const short = await newKey(api, { name: "short", expires_at: expires, scope: ALL });
  const kept = await newKey(api, { name: "kept", scope: ALL });
  const fresh = await withKey(t, short.key).get("/zones/a.example");
  assertEquals(fresh.status, 200, JSON.stringify(fresh.body));
  clock.set(Date.parse(expires));
  const expired = await withKey(t, short.key).get("/zones/a.example");
  assertEquals(expired.status, 401, JSON.stringify(expired.body));
  assertMatch(expired.body.error as string, /expired/);

  assertEquals((await withKey(t, kept.key).get("/zones/a.example")).status, 200);
  // The administrator's JWT has expired with the clock's jump: a new one.
  const admin = await dnsApi(t);
  assertEquals((await admin.del(`/api-keys/${kept.id}`)).status, 200);
  assertEquals((await withKey(t, kept.key).get("/zones/a.example")).status, 401);
  assertEquals((await withKey(t, kept.key, true).get("/zones/a.example")).status, 401);
  assertEquals((await admin.del(`/api-keys/${kept.id}`)).status, 404);
  assertEquals((await auditRows(t, { event_type: "dns.api_key_revoked" })).length, 1);
  const listed = (await admin.get("/api-keys")).body.api_keys as {
    name: string;
    expired: boolean;
  }[];
  assertEquals(listed.map((k) => [k.name, k.expired]), [["short", true]]);
});

Deno.test("a key, even an unrestricted one, is refused on users, TSIG keys and API keys (403, audited)", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const { key } = await newKey(api, { name: "all", scope: ALL });
  const k = withKey(t, key);
  const tries = [
    await k.get("/users"),
    await k.get("/tsig-keys"),
    await k.get("/api-keys"),
    await k.post("/api-keys", { name: "more", scope: ALL }),
    await withKey(t, key, true).del(`/api-keys/x`),
  ];
  for (const r of tries) assertEquals(r.status, 403, JSON.stringify(r.body));
  assertEquals((await refusals(t)).length, tries.length);
  // The same key creates and deletes zones: its scope is unrestricted.
  const made = await k.post("/zones", { name: "c.example", admin_email: "h@c.example" });
  assertEquals(made.status, 201, JSON.stringify(made.body));
  assertEquals((await k.del("/zones/c.example")).status, 200);
});

/** A body each zone route with a validated body accepts, so that the scope check is what answers. */
const BODIES: Record<string, unknown> = {
  "POST /api/v1/zones": { name: "c.example", admin_email: "h@c.example" },
  "PUT /api/v1/zones/:name": { refresh: 7200 },
  "POST /api/v1/zones/:name/dnssec": { enable: true },
  "POST /api/v1/zones/:name/records": { domain: "www.b.example", type: "A", value: "192.0.2.1" },
  "PUT /api/v1/zones/:name/records/:id": { ttl: 300 },
  "POST /api/v1/zones/:name/records/batch": {
    operations: [{ operation: "create", domain: "www.b.example", type: "A", value: "192.0.2.1" }],
  },
};

Deno.test("every zone and record route in the manifest refuses a key for another zone (403, audited)", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "a.example");
  await zone(api, "b.example");
  const rec = await api.post("/zones/b.example/records", {
    domain: "www.b.example",
    type: "TXT",
    value: "x",
  });
  const { key } = await newKey(api, {
    name: "a-only",
    scope: { zones: ["a.example"], types: "*", names: "*", access: "write" },
  });
  const before = (await api.get("/zones/b.example/records")).body;
  let checked = 0;
  for (const route of t.server.routes.dnsApi) {
    if (!route.pattern.startsWith("/api/v1/zones")) continue;
    for (const method of ["GET", "POST", "PUT", "DELETE"] as const) {
      const meta = route.module.meta?.[method];
      // The zone listing answers a key with its own zones (tested above).
      if (!meta || `${method} ${route.pattern}` === "GET /api/v1/zones") continue;
      const where = `${method} ${route.pattern}`;
      if (meta.body && !(where in BODIES)) throw new Error(`Give ${where} a body in BODIES`);
      const path = route.pattern.replace(":name", "b.example").replace(":id", `${rec.body.id}`);
      const res = await call(`${t.dnsApi}${path}`, {
        method,
        headers: { "X-API-Key": key },
        json: method === "GET" ? undefined : BODIES[where] ?? {},
      });
      assertEquals(res.status, 403, `${where}: ${JSON.stringify(res.body)}`);
      checked++;
    }
  }
  assert(checked >= 12, `only ${checked} zone routes found`);
  assertEquals((await refusals(t)).length, checked);
  assertEquals((await api.get("/zones/b.example/records")).body, before, "nothing changed");
});
