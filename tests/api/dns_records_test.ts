/**
 * Records through the DNS management API: create, get, list with the type
 * filter, partial update, delete; every change bumps the serial once, is
 * audited, emits ZoneChanged and is answered by the real DNS listener at once;
 * validation per type and the zone rules answer 400/404/409/422.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function errorOf(res: { status: number; body: Record<string, unknown> }, status: number): string {
  assertEquals(res.status, status, JSON.stringify(res.body));
  assertEquals(Object.keys(res.body).sort(), ["error", "status"], JSON.stringify(res.body));
  assertEquals(res.body.status, status);
  return res.body.error as string;
}

async function serialOf(api: DnsApi, zone: string): Promise<number> {
  return (await api.get(`/zones/${zone}`)).body.serial as number;
}

async function newZone(api: DnsApi, name: string): Promise<void> {
  const res = await api.post("/zones", {
    name,
    admin_email: `hostmaster@${name}`,
    default_ttl: 600,
    nameservers: [`ns1.${name}`],
  });
  assertEquals(res.status, 201, JSON.stringify(res.body));
}

Deno.test("record create, get, list, partial update and delete each bump the serial once and reach the DNS listener at once", async () => {
  const withDig = haveSystem("record changes answered by the DNS listener", ["dig"]);
  await using t = await startTestServer();
  await using events = await watchEvents(t);
  const api = await dnsApi(t);
  await newZone(api, "example.com");
  let serial = await serialOf(api, "example.com");

  // Create: 201 with id and timestamps; the owner is normalized and the TTL defaults to the zone's.
  const created = await api.post("/zones/example.com/records", {
    domain: "WWW.example.com.",
    type: "a",
    value: "192.0.2.10",
  });
  assertEquals(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  assertMatch(id, /^[0-9a-f-]{36}$/);
  assertEquals(
    { ...created.body, id: "", created_at: "", updated_at: "" },
    {
      id: "",
      domain: "www.example.com",
      type: "A",
      value: "192.0.2.10",
      ttl: 600,
      created_at: "",
      updated_at: "",
    },
  );
  assertMatch(created.body.created_at as string, ISO_UTC);
  assertEquals(await serialOf(api, "example.com"), ++serial);
  if (withDig) {
    // No wait: the index is rebuilt before the response is sent.
    const a = await dig(t.dns.port, ["www.example.com", "A"]);
    assertEquals(a.answer, ["www.example.com. 600 IN A 192.0.2.10"]);
  }

  const mx = await api.post("/zones/example.com/records", {
    domain: "@",
    type: "MX",
    value: "10 Mail.Example.com",
    ttl: 3600,
  });
  assertEquals(mx.status, 201);
  assertEquals(mx.body.value, "10 mail.example.com.");
  assertEquals(mx.body.domain, "example.com");
  assertEquals(await serialOf(api, "example.com"), ++serial);

  // Get and list (SOA first; the type filter is case-insensitive).
  assertEquals((await api.get(`/zones/example.com/records/${id}`)).body, created.body);
  const all = await api.get("/zones/example.com/records");
  assertEquals(
    (all.body.records as { type: string }[]).map((r) => r.type),
    ["SOA", "MX", "A"],
  );
  const onlyA = await api.get("/zones/example.com/records?type=a");
  assertEquals(onlyA.body, {
    zone: "example.com",
    records: [created.body],
    total: 1,
    next_cursor: null,
  });
  assertEquals((await api.get("/zones/example.com/records?type=AAAA")).body.records, []);
  assertEquals((await api.get("/zones/example.com")).body.records_count, 3);

  // Partial update: TTL only keeps the value; value only keeps the TTL.
  const ttlOnly = await api.put(`/zones/example.com/records/${id}`, { ttl: 120 });
  assertEquals(ttlOnly.status, 200, JSON.stringify(ttlOnly.body));
  assertEquals([ttlOnly.body.value, ttlOnly.body.ttl], ["192.0.2.10", 120]);
  assertEquals(ttlOnly.body.created_at, created.body.created_at);
  assertMatch(ttlOnly.body.updated_at as string, ISO_UTC);
  assertEquals(await serialOf(api, "example.com"), ++serial);
  const valueOnly = await api.put(`/zones/example.com/records/${id}`, { value: "192.0.2.11" });
  assertEquals([valueOnly.body.value, valueOnly.body.ttl], ["192.0.2.11", 120]);
  assertEquals(await serialOf(api, "example.com"), ++serial);
  if (withDig) {
    const a = await dig(t.dns.port, ["www.example.com", "A"]);
    assertEquals(a.answer, ["www.example.com. 120 IN A 192.0.2.11"]);
    const soa = await dig(t.dns.port, ["example.com", "SOA"]);
    assert(soa.answer[0].includes(` ${serial} `), soa.raw);
  }

  // Delete.
  const del = await api.del(`/zones/example.com/records/${id}`);
  assertEquals(del.status, 200);
  assertEquals(del.body.success, true);
  assertEquals(typeof del.body.message, "string");
  assertEquals(await serialOf(api, "example.com"), ++serial);
  errorOf(await api.get(`/zones/example.com/records/${id}`), 404);
  if (withDig) {
    assertEquals((await dig(t.dns.port, ["www.example.com", "A"])).status, "NXDOMAIN");
  }

  // Audit rows and events, one per change.
  const audit = await auditRows(t, { resource_type: "dns_record" });
  assertEquals(audit.map((r) => [r.actor, r.event_type]), [
    ["admin", "dns.record.created"],
    ["admin", "dns.record.created"],
    ["admin", "dns.record.updated"],
    ["admin", "dns.record.updated"],
    ["admin", "dns.record.deleted"],
  ]);
  assertEquals(audit.filter((r) => r.resource_id === id).length, 4);
  await events.waitFor((f) => f.type === "ZoneChanged" && f.payload.action === "record_deleted");
  const changes = events.frames.filter((f) => f.type === "ZoneChanged").map((f) => [
    f.payload.action,
    f.payload.serial,
  ]);
  assertEquals(changes.slice(1), [
    ["record_created", serial - 4],
    ["record_created", serial - 3],
    ["record_updated", serial - 2],
    ["record_updated", serial - 1],
    ["record_deleted", serial],
  ]);
});

Deno.test("record requests answer 400, 404, 409 and 422 per the shared error mapping", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await newZone(api, "example.com");
  await newZone(api, "example.org");
  const post = (body: Record<string, unknown>, zone = "example.com") =>
    api.post(`/zones/${zone}/records`, body);
  const www = await post({ domain: "www.example.com", type: "A", value: "192.0.2.1" });
  assertEquals(www.status, 201);
  const wwwId = www.body.id as string;
  const other = await post({ domain: "example.org", type: "TXT", value: "other" }, "example.org");
  const soaId = ((await api.get("/zones/example.com/records?type=SOA")).body.records as {
    id: string;
  }[])[0].id;
  const before = await serialOf(api, "example.com");

  // 400: wrong JSON types, out-of-range TTLs, values invalid for their type, unknown types and fields.
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ domain: "a.example.com", type: "A", value: "192.0.2.1", ttl: "300" }, /"ttl"/],
    [{ domain: "a.example.com", type: "A", value: "192.0.2.1", ttl: -1 }, /"ttl"/],
    [{ domain: "a.example.com", type: "A", value: "192.0.2.1", ttl: 1.5 }, /"ttl"/],
    [{ domain: "a.example.com", type: "A", value: "192.0.2.1", ttl: 2 ** 31 }, /"ttl"/],
    [{ domain: "a.example.com", type: "A", value: 3232235777 }, /"value"/],
    [{ domain: "a.example.com", type: "A" }, /^Missing field "value"/],
    [{ domain: "a.example.com", type: "A", value: "192.0.2.1", prio: 1 }, /^Unknown field "prio"/],
    [{ domain: "a.example.com", type: "A", value: "192.0.2.256" }, /A/],
    [{ domain: "a.example.com", type: "AAAA", value: "192.0.2.1" }, /AAAA/],
    [{ domain: "a.example.com", type: "MX", value: "mail.example.com" }, /MX/],
    [{ domain: "a.example.com", type: "SRV", value: "10 60 70000 sip.example.com" }, /SRV/],
    [{ domain: "a.example.com", type: "CAA", value: "0 issue letsencrypt.org extra" }, /CAA/],
    [{ domain: "a.example.com", type: "FOO", value: "x" }, /^Record type "FOO" is not supported/],
    [{ domain: "a.example.com", type: "RRSIG", value: "x" }, /RRSIG/],
    [{ domain: "a..example.com", type: "A", value: "192.0.2.1" }, /empty label/],
  ];
  for (const [body, said] of bad) {
    assertMatch(errorOf(await post(body), 400), said, JSON.stringify(body));
  }
  errorOf(await api.get("/zones/example.com/records?type=BOGUS"), 400);
  errorOf(await api.put(`/zones/example.com/records/${wwwId}`, {}), 400);
  errorOf(await api.put(`/zones/example.com/records/${wwwId}`, { ttl: "60" }), 400);
  errorOf(await api.put(`/zones/example.com/records/${wwwId}`, { value: "not-an-ip" }), 400);

  // 404: unknown zone or record, and a record of another zone.
  errorOf(await api.get("/zones/nothere.example/records"), 404);
  errorOf(
    await post({ domain: "a.nothere.example", type: "A", value: "192.0.2.1" }, "nothere.example"),
    404,
  );
  for (
    const path of [
      "/zones/example.com/records/00000000-0000-0000-0000-000000000000",
      `/zones/example.com/records/${other.body.id}`,
      `/zones/nothere.example/records/${wwwId}`,
    ]
  ) {
    errorOf(await api.get(path), 404);
    errorOf(await api.put(path, { ttl: 60 }), 404);
    errorOf(await api.del(path), 404);
  }

  // 409: duplicates (compared on the canonical value) and CNAME conflicts.
  const second = await post({ domain: "www.example.com", type: "AAAA", value: "2001:db8::1" });
  assertEquals(second.status, 201);
  const conflicts: Record<string, unknown>[] = [
    { domain: "www.example.com", type: "A", value: "192.0.2.1", ttl: 60 },
    { domain: "WWW.example.com.", type: "AAAA", value: "2001:DB8:0::1" },
    { domain: "www.example.com", type: "CNAME", value: "elsewhere.example.org" },
    { domain: "example.com", type: "CNAME", value: "elsewhere.example.org" },
  ];
  assertEquals(
    (await post({ domain: "alias.example.com", type: "CNAME", value: "www.example.com" })).status,
    201,
  );
  conflicts.push(
    { domain: "alias.example.com", type: "TXT", value: "data at a CNAME owner" },
    { domain: "alias.example.com", type: "CNAME", value: "other.example.com" },
  );
  for (const body of conflicts) errorOf(await post(body), 409);
  const twin = await post({ domain: "www.example.com", type: "A", value: "192.0.2.2" });
  assertEquals(twin.status, 201);
  const clash = errorOf(
    await api.put(`/zones/example.com/records/${twin.body.id}`, { value: "192.0.2.1" }),
    409,
  );
  assertMatch(clash, /already exists/);

  // 422: well-formed but against the zone's rules.
  const unprocessable: Record<string, unknown>[] = [
    { domain: "www.example.org", type: "A", value: "192.0.2.1" },
    {
      domain: "example.com",
      type: "SOA",
      value: "ns1.example.com. h.example.com. 1 3600 900 1209600 300",
    },
    { domain: "example.com", type: "NS", value: "ns9.example.net" },
    { domain: "*.example.com", type: "NS", value: "ns9.example.net" },
  ];
  assertEquals(
    (await post({ domain: "sub.example.com", type: "NS", value: "ns.example.net" })).status,
    201,
  );
  unprocessable.push({ domain: "x.sub.example.com", type: "TXT", value: "occluded" });
  for (const body of unprocessable) errorOf(await post(body), 422);
  errorOf(await api.put(`/zones/example.com/records/${soaId}`, { ttl: 60 }), 422);
  errorOf(await api.del(`/zones/example.com/records/${soaId}`), 422);

  // Only the four successful creates moved the serial.
  assertEquals(await serialOf(api, "example.com"), before + 4);
});

Deno.test("TXT values longer than 255 bytes are split into chunks and come back whole through the API and DNS", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await newZone(api, "example.com");
  const key = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + "x".repeat(360);
  const text = `v=DKIM1; k=rsa; p=${key}`;
  const created = await api.post("/zones/example.com/records", {
    domain: "sel._domainkey.example.com",
    type: "TXT",
    value: text,
  });
  assertEquals(created.status, 201, JSON.stringify(created.body));
  const value = created.body.value as string;
  const chunks = [...value.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  assertEquals(chunks.map((c) => c.length), [255, text.length - 255]);
  assertEquals(chunks.join(""), text);
  assertEquals(value, `"${text.slice(0, 255)}" "${text.slice(255)}"`);
  // The chunked form is the same record: sending it again is a duplicate.
  errorOf(
    await api.post("/zones/example.com/records", {
      domain: "sel._domainkey.example.com",
      type: "TXT",
      value,
    }),
    409,
  );
  // Quotes, backslashes and non-ASCII survive as escapes.
  const odd = await api.post("/zones/example.com/records", {
    domain: "odd.example.com",
    type: "TXT",
    value: 'say "hi" \\ café',
  });
  assertEquals(odd.status, 201);
  assertEquals(odd.body.value, '"say \\"hi\\" \\\\ caf\\195\\169"');

  if (!haveSystem("TXT chunks over DNS", ["dig"])) return;
  const ans = await dig(t.dns.port, ["sel._domainkey.example.com", "TXT"]);
  assertEquals(ans.answer.length, 1);
  const wire = [...ans.answer[0].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  assertEquals(wire.join(""), text);
  const oddAns = await dig(t.dns.port, ["odd.example.com", "TXT", "+short"]);
  assertEquals(oddAns.raw.trim(), '"say \\"hi\\" \\\\ caf\\195\\169"');
});
