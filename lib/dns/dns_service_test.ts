import { assert, assertEquals, assertMatch, assertThrows } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import {
  ConflictError,
  type DomainError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from "../errors.ts";
import type { Store } from "../store/store.ts";

function setup(store: Store) {
  const invalidated: string[] = [];
  const t = dnsTestService(store, { index: { invalidate: (z) => invalidated.push(z) } });
  return { ...t, invalidated };
}

const zone = { name: "Example.COM.", admin_email: "hostmaster@example.com" };

Deno.test("createZone() normalizes the name and gives a zone with its SOA only and the configured NS", async () => {
  await using t = await tempStore();
  const { service, events, invalidated } = setup(t.store);
  const z = service.createZone("alice", zone);
  assertEquals(z.name, "example.com");
  assertEquals(z.records_count, 1);
  assertEquals(z.nameservers, ["ns1.example.com", "ns.provider.net"]);
  assertEquals(z.dnssec_enabled, false);
  assertEquals(z.serial, 2026031400);
  assertEquals(z.created_at, "2026-03-14T12:00:00.000Z");
  const recs = service.listRecords("example.com").records;
  assertEquals(recs.map((r) => [r.domain, r.type, r.value]), [[
    "example.com",
    "SOA",
    "ns1.example.com. hostmaster.example.com. 2026031400 3600 900 1209600 300",
  ]]);
  assertEquals(service.listZones().map((s) => [s.name, s.records_count]), [["example.com", 1]]);
  assertEquals(invalidated, ["example.com"]);
  assert(events.some((e) => e.type === "ZoneChanged" && e.payload.action === "created"));
  assertThrows(
    () => service.createZone("alice", zone),
    ConflictError,
    'Zone "example.com" already exists',
  );
  assertThrows(() => service.createZone("alice", { ...zone, name: "bad..name" }), ValidationError);
  assertThrows(
    () => service.createZone("alice", { ...zone, name: "x.test", admin_email: "nope" }),
    ValidationError,
  );
});

Deno.test("createZone() and updateZone() bound the SOA timers", async () => {
  await using t = await tempStore();
  const { service } = setup(t.store);
  const e = assertThrows(
    () => service.createZone("a", { ...zone, refresh: 10 }),
    ValidationError,
  ) as ValidationError;
  assertEquals(e.field, "refresh");
  assertThrows(
    () => service.createZone("a", { ...zone, retry: 7200, refresh: 3600 }),
    UnprocessableError,
  );
  assertThrows(() => service.createZone("a", { ...zone, minimum: 90000 }), ValidationError);
  service.createZone("a", zone);
  const u = service.updateZone("a", "example.com", { refresh: 7200, minimum: 60 });
  assertEquals([u.refresh, u.minimum, u.serial], [7200, 60, 2026031401]);
  assertThrows(() => service.updateZone("a", "example.com", { expire: 100 }), ValidationError);
  assertThrows(() => service.updateZone("a", "nope.com", {}), NotFoundError);
});

/** A zone holding www (A), an apex MX, a CNAME, a delegation and its glue: six records with the SOA. */
function seeded(store: Store) {
  const { service } = setup(store);
  service.createZone("a", zone);
  const www = service.createRecord("a", "example.com", {
    domain: "www.example.com.",
    type: "a",
    value: "192.0.2.1",
  });
  const mx = service.createRecord("a", "example.com", {
    domain: "@",
    type: "MX",
    value: "10 mail.example.com",
    ttl: 300,
  });
  service.createRecord("a", "example.com", {
    domain: "alias.example.com",
    type: "CNAME",
    value: "www.example.com",
  });
  service.createRecord("a", "example.com", {
    domain: "sub.example.com",
    type: "NS",
    value: "ns.sub.example.com",
  });
  service.createRecord("a", "example.com", {
    domain: "ns.sub.example.com",
    type: "A",
    value: "192.0.2.53",
  });
  return { service, www, mx };
}

Deno.test("createRecord() normalizes owner, type and value and defaults the TTL", async () => {
  await using t = await tempStore();
  const { service, www, mx } = seeded(t.store);
  assertEquals([www.domain, www.type, www.value, www.ttl], [
    "www.example.com",
    "A",
    "192.0.2.1",
    3600,
  ]);
  assertMatch(www.id, /^[0-9a-f-]{36}$/);
  assertEquals(mx.value, "10 mail.example.com.");
  assertEquals(service.getZone("example.com").records_count, 6);
  assertEquals(service.listRecords("example.com", "mx").records.map((r) => r.id), [mx.id]);
});

Deno.test("createRecord() refuses duplicates and enforces CNAME exclusivity", async () => {
  await using t = await tempStore();
  const { service } = seeded(t.store);
  const create = (domain: string, type: string, value: string) => () =>
    service.createRecord("a", "example.com", { domain, type, value });
  assertThrows(create("www.example.com", "A", "192.0.2.1"), ConflictError, "already exists");
  assertThrows(
    create("www.example.com", "CNAME", "x.example.net"),
    ConflictError,
    'Record "www.example.com" of type "CNAME" conflicts with existing data',
  );
  assertThrows(
    create("alias.example.com", "TXT", "x"),
    ConflictError,
    "conflicts with an existing CNAME",
  );
  assertThrows(create("example.com", "CNAME", "x.example.net"), ConflictError);
});

Deno.test("createRecord() refuses names outside the zone, bad data, apex NS and data below a delegation", async () => {
  await using t = await tempStore();
  const { service } = seeded(t.store);
  const create = (domain: string, type: string, value: string, ttl?: number) => () =>
    service.createRecord("a", "example.com", { domain, type, value, ttl });
  assertThrows(create("www.example.org", "A", "192.0.2.1"), UnprocessableError, "outside zone");
  assertThrows(create("x.example.com", "A", "300.1.1.1"), ValidationError);
  assertThrows(create("x.example.com", "A", "1.1.1.1", -1), ValidationError);
  assertThrows(create("example.com", "NS", "ns9.example.net"), UnprocessableError, "nameservers");
  assertThrows(
    create("x.sub.example.com", "TXT", "hidden"),
    UnprocessableError,
    "below the delegation",
  );
  assertThrows(
    () =>
      service.createRecord("a", "nope.com", {
        domain: "x.nope.com",
        type: "A",
        value: "192.0.2.1",
      }),
    NotFoundError,
  );
});

Deno.test("errors name the field a form shows them at", async () => {
  await using t = await tempStore();
  const { service, www } = seeded(t.store);
  const fieldOf = (fn: () => unknown) => (assertThrows(fn) as DomainError).field;
  const create = (domain: string, type: string, value: string, ttl?: number) => () =>
    service.createRecord("a", "example.com", { domain, type, value, ttl });
  assertEquals(fieldOf(create("www.example.org", "A", "192.0.2.1")), "domain");
  assertEquals(fieldOf(create("bad..name.example.com", "A", "192.0.2.1")), "domain");
  assertEquals(fieldOf(create("x.example.com", "A", "300.1.1.1")), "value");
  assertEquals(fieldOf(create("x.example.com", "A", "1.1.1.1", -1)), "ttl");
  assertEquals(fieldOf(create("x.example.com", "NOPE", "1")), "type");
  assertEquals(fieldOf(() => service.createZone("a", zone)), "name");
  assertEquals(fieldOf(() => service.createZone("a", { ...zone, name: "bad..name" })), "name");
  assertEquals(
    fieldOf(() => service.createZone("a", { ...zone, admin_email: "nope" })),
    "admin_email",
  );
  assertEquals(fieldOf(() => service.updateZone("a", "example.com", { retry: 1 })), "retry");
  assertEquals(
    fieldOf(() => service.updateZone("a", "example.com", { nameservers: [] })),
    "nameservers",
  );
  service.createRecord("a", "example.com", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.2",
  });
  assertEquals(
    fieldOf(() => service.updateRecord("a", "example.com", www.id, { value: "192.0.2.2" })),
    "value",
  );
  const outside = assertThrows(
    () => service.importZone("a", "example.com", "$TTL 60\nwww.example.org. A 192.0.2.1\n"),
    ValidationError,
    'Line 2: name "www.example.org" is outside zone "example.com"',
  );
  assertEquals((outside as ValidationError).field, "name");
  const rule = assertThrows(
    () => service.importZone("a", "example.com", "$TTL 60\nalias A 192.0.2.1\n"),
    ConflictError,
    'Line 2: Record "alias.example.com" of type "A" conflicts with an existing CNAME',
  );
  assertEquals((rule as ConflictError).field, undefined);
});

Deno.test("updateRecord() is partial, deleteRecord() removes, and the SOA is protected", async () => {
  await using t = await tempStore();
  const { service, clock } = setup(t.store);
  service.createZone("a", zone);
  const r = service.createRecord("a", "example.com", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  clock.advance(60_000);
  const u = service.updateRecord("a", "example.com", r.id, { ttl: 60 });
  assertEquals([u.value, u.ttl, u.created_at, u.updated_at], [
    "192.0.2.1",
    60,
    r.created_at,
    "2026-03-14T12:01:00.000Z",
  ]);
  assertEquals(service.updateRecord("a", "example.com", r.id, { value: "192.0.2.9" }).ttl, 60);
  assertEquals(service.getRecord("example.com", r.id).value, "192.0.2.9");
  const soa = service.listRecords("example.com", "SOA").records[0];
  assertThrows(
    () => service.updateRecord("a", "example.com", soa.id, { ttl: 5 }),
    UnprocessableError,
  );
  assertThrows(() => service.deleteRecord("a", "example.com", soa.id), UnprocessableError);
  assertEquals(service.deleteRecord("a", "example.com", r.id).success, true);
  assertThrows(() => service.getRecord("example.com", r.id), NotFoundError);
});

Deno.test("every change bumps the serial date-based, is audited in its transaction and emits ZoneChanged", async () => {
  await using t = await tempStore();
  const { service, events, clock, audit } = setup(t.store);
  service.createZone("alice", zone);
  const serials = [service.getZone("example.com").serial];
  for (let i = 0; i < 3; i++) {
    service.createRecord("alice", "example.com", {
      domain: `h${i}.example.com`,
      type: "A",
      value: `192.0.2.${i}`,
    });
    serials.push(service.getZone("example.com").serial);
  }
  assertEquals(serials, [2026031400, 2026031401, 2026031402, 2026031403]);
  clock.advance(86_400_000);
  service.createRecord("alice", "example.com", {
    domain: "next.example.com",
    type: "A",
    value: "192.0.2.9",
  });
  assertEquals(service.getZone("example.com").serial, 2026031500);
  const changes = events.filter((e) => e.type === "ZoneChanged").map((e) => e.payload);
  assertEquals(changes.length, 5);
  assertEquals(changes[4], { zone: "example.com", action: "record_created", serial: 2026031500 });
  const log = await audit.list({ actor: "alice", limit: 10, offset: 0 });
  assertEquals(log.total, 5);
  assertEquals(log.records[0].event_type, "dns.record.created");
  // A failed change leaves no serial bump, audit record or event.
  assertThrows(() =>
    service.createRecord("alice", "example.com", { domain: "x.example.com", type: "A", value: "x" })
  );
  assertEquals(service.getZone("example.com").serial, 2026031500);
  assertEquals((await audit.list({ limit: 10, offset: 0 })).total, 5);
  assertEquals(events.filter((e) => e.type === "ZoneChanged").length, 5);
});
