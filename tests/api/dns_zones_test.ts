/**
 * Zones through the DNS management API (specs/dns.md, docs/dns.md): creation
 * with its SOA and apex NS, details, updates that bump the serial, deletion,
 * the error statuses, roles, audit rows and ZoneChanged events, and that the
 * real DNS listener answers each change at once.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function todaySerial(): number {
  const d = new Date();
  return Number(
    `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}${
      String(d.getUTCDate()).padStart(2, "0")
    }00`,
  );
}

/** Asserts the shared error shape and returns the message. */
function errorOf(res: { status: number; body: Record<string, unknown> }, status: number): string {
  assertEquals(res.status, status, JSON.stringify(res.body));
  assertEquals(Object.keys(res.body).sort(), ["error", "status"], JSON.stringify(res.body));
  assertEquals(res.body.status, status);
  assertEquals(typeof res.body.error, "string");
  return res.body.error as string;
}

Deno.test("POST /zones creates a zone with records_count 1 and apex NS from PALISADE_DNS_NAMESERVERS", async () => {
  await using t = await startTestServer({
    env: { PALISADE_DNS_NAMESERVERS: "ns1.example.net,ns2.{zone}" },
  });
  const api = await dnsApi(t);
  const created = await api.post("/zones", {
    name: "Example.COM.",
    admin_email: "hostmaster@example.com",
  });
  assertEquals(created.status, 201, JSON.stringify(created.body));
  assertEquals(Object.keys(created.body).sort(), [
    "created_at",
    "name",
    "records_count",
    "updated_at",
  ]);
  assertEquals(created.body.name, "example.com");
  assertEquals(created.body.records_count, 1);
  assertMatch(created.body.created_at as string, ISO_UTC);
  assertMatch(created.body.updated_at as string, ISO_UTC);

  const list = await api.get("/zones");
  assertEquals(list.status, 200);
  assertEquals(list.body.zones, [created.body]);

  const details = await api.get("/zones/example.com");
  assertEquals(details.status, 200);
  assertEquals(details.body, {
    name: "example.com",
    admin_email: "hostmaster@example.com",
    serial: todaySerial(),
    refresh: 3600,
    retry: 900,
    expire: 1209600,
    minimum: 300,
    default_ttl: 3600,
    records_count: 1,
    nameservers: ["ns1.example.net", "ns2.example.com"],
    dnssec_enabled: false,
    created_at: created.body.created_at,
    updated_at: created.body.updated_at,
  });
  // The trailing dot and case of a path name do not matter.
  assertEquals((await api.get("/zones/EXAMPLE.com.")).body, details.body);

  const records = await api.get("/zones/example.com/records");
  assertEquals(records.status, 200);
  assertEquals(records.body.zone, "example.com");
  const soa = records.body.records as { type: string; domain: string; value: string }[];
  assertEquals(soa.map((r) => [r.domain, r.type]), [["example.com", "SOA"]]);
  assertEquals(
    soa[0].value,
    `ns1.example.net. hostmaster.example.com. ${todaySerial()} 3600 900 1209600 300`,
  );

  if (!haveSystem("DNS listener answers an API-created zone", ["dig"])) return;
  const ns = await dig(t.dns.port, ["example.com", "NS"]);
  assertEquals(ns.status, "NOERROR");
  assertEquals(ns.answer, [
    "example.com. 3600 IN NS ns1.example.net.",
    "example.com. 3600 IN NS ns2.example.com.",
  ]);
  const soaAnswer = await dig(t.dns.port, ["example.com", "SOA"]);
  assert(soaAnswer.flags.includes("aa"), soaAnswer.raw);
  assertEquals(soaAnswer.answer, [`example.com. 3600 IN SOA ${soa[0].value}`]);
});

Deno.test("zone requests answer 400, 404, 409 and 422 with {error, status}", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const ok = { name: "example.org", admin_email: "hostmaster@example.org" };
  assertEquals((await api.post("/zones", ok)).status, 201);

  // 400: malformed names, wrong types, out-of-bounds timers, unknown fields.
  for (
    const [body, said] of [
      [{ ...ok, name: "bad..name" }, /^Name "bad\.\.name"/],
      [{ ...ok, name: `${"a".repeat(64)}.example` }, /invalid label/],
      [{ ...ok, name: "white space.example" }, /invalid label/],
      [{ ...ok, name: "." }, /^Name "\." is empty/],
      [{ ...ok, name: 42 }, /^Invalid field "name"/],
      [{ name: "x.example" }, /^Missing field "admin_email"/],
      [{ ...ok, name: "x.example", admin_email: "not-an-address" }, /not a valid e-mail address/],
      [{ ...ok, name: "x.example", refresh: "3600" }, /^Invalid field "refresh"/],
      [{ ...ok, name: "x.example", refresh: 10 }, /^Invalid field "refresh": must be .* 60 to/],
      [{ ...ok, name: "x.example", minimum: 1.5 }, /^Invalid field "minimum"/],
      [{ ...ok, name: "x.example", default_ttl: 604801 }, /^Invalid field "default_ttl"/],
      [{ ...ok, name: "x.example", expire: -1 }, /^Invalid field "expire"/],
      [{ ...ok, name: "x.example", serial: 1 }, /^Unknown field "serial"/],
    ] as [Record<string, unknown>, RegExp][]
  ) {
    assertMatch(errorOf(await api.post("/zones", body), 400), said, JSON.stringify(body));
  }
  assert(
    errorOf(await api.put("/zones/example.org", { refresh: "7200" }), 400).includes("refresh"),
  );
  errorOf(await api.put("/zones/example.org", {}), 400);
  const malformed = { method: "POST", body: "{not json" };
  errorOf(
    await api.raw("/zones", { ...malformed, headers: { "Content-Type": "application/json" } })
      .then(toReply),
    400,
  );
  // 415: a body that does not say it is JSON is not parsed as JSON (bytes: fetch adds no type).
  for (const type of [undefined, "text/plain", "application/xml"]) {
    const headers = type ? { "Content-Type": type } : undefined;
    const body = new TextEncoder().encode('{"name":"x.example","admin_email":"h@x.example"}');
    errorOf(await api.raw("/zones", { method: "POST", body, headers }).then(toReply), 415);
  }

  // 404: unknown zone for every zone method, and a path name that is not a name at all.
  for (const path of ["/zones/nothere.example", "/zones/bad..name"]) {
    errorOf(await api.get(path), 404);
    errorOf(await api.put(path, { refresh: 7200 }), 404);
    errorOf(await api.del(path), 404);
    errorOf(await api.get(`${path}/records`), 404);
    errorOf(await api.get(`${path}/export`), 404);
  }

  // 409: the same zone again, whatever its spelling.
  const dup = errorOf(await api.post("/zones", { ...ok, name: "EXAMPLE.org." }), 409);
  assertEquals(dup, 'Zone "example.org" already exists');

  // 422: timers that are each in bounds but inconsistent together.
  errorOf(await api.post("/zones", { ...ok, name: "y.example", retry: 7200, refresh: 3600 }), 422);
  errorOf(
    await api.post("/zones", {
      ...ok,
      name: "y.example",
      refresh: 3600,
      retry: 900,
      expire: 4000,
    }),
    422,
  );
  errorOf(await api.put("/zones/example.org", { retry: 7200 }), 422);
  assertEquals((await api.get("/zones")).body.zones instanceof Array, true);
  assertEquals(((await api.get("/zones")).body.zones as unknown[]).length, 1);
});

async function toReply(res: Response) {
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

Deno.test("PUT and DELETE /zones/{name} bump the serial, are audited, emit ZoneChanged and reach the DNS listener", async () => {
  await using t = await startTestServer();
  await using events = await watchEvents(t);
  const api = await dnsApi(t);
  const created = await api.post("/zones", {
    name: "example.net",
    admin_email: "hostmaster@example.net",
    nameservers: ["ns1.example.net"],
  });
  assertEquals(created.status, 201);
  const first = (await api.get("/zones/example.net")).body;
  await events.waitFor((f) =>
    f.type === "ZoneChanged" && f.payload.zone === "example.net" && f.payload.action === "created"
  );

  const put = await api.put("/zones/example.net", {
    admin_email: "dns.admin@Example.NET",
    refresh: 7200,
    nameservers: ["ns1.example.net", "ns.example.org."],
  });
  assertEquals(put.status, 200, JSON.stringify(put.body));
  const after = (await api.get("/zones/example.net")).body;
  assertEquals(after.serial, (first.serial as number) + 1);
  assertEquals(put.body, {
    name: "example.net",
    admin_email: "dns.admin@example.net",
    refresh: 7200,
    nameservers: ["ns1.example.net", "ns.example.org"],
    serial: after.serial,
    updated_at: after.updated_at,
  });
  assertMatch(put.body.updated_at as string, ISO_UTC);
  assert((put.body.updated_at as string) >= (first.updated_at as string));
  const changed = await events.waitFor((f) =>
    f.type === "ZoneChanged" && f.payload.action === "updated"
  );
  assertEquals(changed.payload, { zone: "example.net", action: "updated", serial: after.serial });

  if (haveSystem("DNS listener follows PUT /zones/{name}", ["dig"])) {
    const soa = await dig(t.dns.port, ["example.net", "SOA"]);
    assertEquals(soa.answer, [
      `example.net. 3600 IN SOA ns1.example.net. dns\\.admin.example.net. ${after.serial} 7200 900 1209600 300`,
    ]);
    const ns = await dig(t.dns.port, ["example.net", "NS"]);
    assertEquals(ns.answer, [
      "example.net. 3600 IN NS ns.example.org.",
      "example.net. 3600 IN NS ns1.example.net.",
    ]);
  }

  const del = await api.del("/zones/example.net");
  assertEquals(del.status, 200);
  assertEquals(del.body, { success: true, message: 'Zone "example.net" deleted' });
  errorOf(await api.get("/zones/example.net"), 404);
  await events.waitFor((f) => f.type === "ZoneChanged" && f.payload.action === "deleted");
  if (haveSystem("DNS listener forgets a deleted zone", ["dig"])) {
    assertEquals((await dig(t.dns.port, ["example.net", "SOA"])).status, "REFUSED");
  }

  const audit = await auditRows(t, { resource_type: "dns_zone" });
  assertEquals(
    audit.map((r) => [r.actor, r.event_type, r.resource_id]),
    [
      ["admin", "dns.zone.created", "example.net"],
      ["admin", "dns.zone.updated", "example.net"],
      ["admin", "dns.zone.deleted", "example.net"],
    ],
  );
  const auditEvents = events.frames.filter((f) =>
    f.type === "AuditEvent" && String(f.payload.event_type).startsWith("dns.zone.")
  );
  assertEquals(auditEvents.length, 3);
});

Deno.test("DNS API roles: viewers read, operators change zones and records, only administrators manage users", async () => {
  await using t = await startTestServer();
  const admin = await dnsApi(t);
  const viewer = await dnsApi(t, "vera", "viewer");
  const operator = await dnsApi(t, "otto", "operator");
  assertEquals(
    (await admin.post("/zones", { name: "example.com", admin_email: "h@example.com" })).status,
    201,
  );
  const rec = await admin.post("/zones/example.com/records", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  assertEquals(rec.status, 201);
  const id = rec.body.id as string;
  const zoneText = "$ORIGIN example.com.\nimported 300 IN A 192.0.2.9\n";

  // Viewers read everything DNS…
  for (
    const path of [
      "/zones",
      "/zones/example.com",
      "/zones/example.com/records",
      `/zones/example.com/records/${id}`,
    ]
  ) {
    assertEquals((await viewer.get(path)).status, 200, path);
  }
  assertEquals((await viewer.raw("/zones/example.com/export")).status, 200);
  // …and change nothing.
  const denied = [
    await viewer.post("/zones", { name: "v.example", admin_email: "h@v.example" }),
    await viewer.put("/zones/example.com", { refresh: 7200 }),
    await viewer.del("/zones/example.com"),
    await viewer.post("/zones/example.com/records", {
      domain: "v.example.com",
      type: "A",
      value: "192.0.2.2",
    }),
    await viewer.put(`/zones/example.com/records/${id}`, { ttl: 60 }),
    await viewer.del(`/zones/example.com/records/${id}`),
    await viewer.post("/zones/example.com/records/batch", {
      operations: [{ operation: "delete", id }],
    }),
    await viewer.post("/zones/example.com/import", { zone_file: zoneText }),
    await viewer.get("/users"),
  ];
  for (const res of denied) {
    errorOf(res, 403);
    assertMatch(res.body.error as string, /needs the "(operator|administrator)" role/);
  }

  // Operators change zones, records, batches and imports, but not users.
  assertEquals(
    (await operator.post("/zones", { name: "o.example", admin_email: "h@o.example" })).status,
    201,
  );
  assertEquals((await operator.put("/zones/o.example", { refresh: 7200 })).status, 200);
  assertEquals((await operator.put(`/zones/example.com/records/${id}`, { ttl: 60 })).status, 200);
  assertEquals(
    (await operator.post("/zones/example.com/records/batch", {
      operations: [{ operation: "create", domain: "b.example.com", type: "A", value: "192.0.2.3" }],
    })).status,
    200,
  );
  assertEquals(
    (await operator.post("/zones/example.com/import", { zone_file: zoneText })).status,
    200,
  );
  assertEquals((await operator.del("/zones/o.example")).status, 200);
  errorOf(await operator.get("/users"), 403);
  errorOf(
    await operator.post("/users", {
      username: "eve",
      email: "",
      password: "eve-password-123",
      role: "administrator",
    }),
    403,
  );
  // Operator changes are audited under the operator's name.
  const rows = await auditRows(t, { actor: "otto" });
  assertEquals(rows.map((r) => r.event_type), [
    "auth.login",
    "dns.zone.created",
    "dns.zone.updated",
    "dns.record.updated",
    "dns.record.created",
    "dns.zone.imported",
    "dns.zone.deleted",
  ]);
});
