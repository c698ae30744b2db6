import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
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
  const index = {
    invalidate: (z: string) => {
      invalidated.push(z);
      return Promise.resolve();
    },
    settled: () => Promise.resolve(),
  };
  const t = dnsTestService(store, { index });
  return { ...t, invalidated };
}

const zone = { name: "Example.COM.", admin_email: "hostmaster@example.com" };

Deno.test("createZone() normalizes the name and gives a zone with its SOA only and the configured NS", async () => {
  await using t = await tempStore();
  const { service, events, invalidated } = setup(t.store);
  const z = await service.createZone("alice", zone);
  assertEquals(z.name, "example.com");
  assertEquals(z.records_count, 1);
  assertEquals(z.nameservers, ["ns1.example.com", "ns.provider.net"]);
  assertEquals(z.dnssec_enabled, false);
  assertEquals(z.serial, 2026031400);
  assertEquals(z.created_at, "2026-03-14T12:00:00.000Z");
  const recs = (await service.listRecords("example.com")).records;
  assertEquals(recs.map((r) => [r.domain, r.type, r.value]), [[
    "example.com",
    "SOA",
    "ns1.example.com. hostmaster.example.com. 2026031400 3600 900 1209600 300",
  ]]);
  assertEquals((await service.listZones()).map((s) => [s.name, s.records_count]), [[
    "example.com",
    1,
  ]]);
  assertEquals(invalidated, ["example.com"]);
  assert(events.some((e) => e.type === "ZoneChanged" && e.payload.action === "created"));
  await assertRejects(
    () => service.createZone("alice", zone),
    ConflictError,
    'Zone "example.com" already exists',
  );
  await assertRejects(
    () => service.createZone("alice", { ...zone, name: "bad..name" }),
    ValidationError,
  );
  await assertRejects(
    () => service.createZone("alice", { ...zone, name: "x.test", admin_email: "nope" }),
    ValidationError,
  );
});

Deno.test("createZone() and updateZone() bound the SOA timers", async () => {
  await using t = await tempStore();
  const { service } = setup(t.store);
  const e = await assertRejects(
    () => service.createZone("a", { ...zone, refresh: 10 }),
    ValidationError,
  ) as ValidationError;
  assertEquals(e.field, "refresh");
  await assertRejects(
    () => service.createZone("a", { ...zone, retry: 7200, refresh: 3600 }),
    UnprocessableError,
  );
  await assertRejects(() => service.createZone("a", { ...zone, minimum: 90000 }), ValidationError);
  await service.createZone("a", zone);
  const u = await service.updateZone("a", "example.com", { refresh: 7200, minimum: 60 });
  assertEquals([u.refresh, u.minimum, u.serial], [7200, 60, 2026031401]);
  await assertRejects(
    () => service.updateZone("a", "example.com", { expire: 100 }),
    ValidationError,
  );
  await assertRejects(() => service.updateZone("a", "nope.com", {}), NotFoundError);
});

/** A zone holding www (A), an apex MX, a CNAME, a delegation and its glue: six records with the SOA. */
async function seeded(store: Store) {
  const { service } = setup(store);
  await service.createZone("a", zone);
  const www = await service.createRecord("a", "example.com", {
    domain: "www.example.com.",
    type: "a",
    value: "192.0.2.1",
  });
  const mx = await service.createRecord("a", "example.com", {
    domain: "@",
    type: "MX",
    value: "10 mail.example.com",
    ttl: 300,
  });
  await service.createRecord("a", "example.com", {
    domain: "alias.example.com",
    type: "CNAME",
    value: "www.example.com",
  });
  await service.createRecord("a", "example.com", {
    domain: "sub.example.com",
    type: "NS",
    value: "ns.sub.example.com",
  });
  await service.createRecord("a", "example.com", {
    domain: "ns.sub.example.com",
    type: "A",
    value: "192.0.2.53",
  });
  return { service, www, mx };
}

Deno.test("createRecord() normalizes owner, type and value and defaults the TTL", async () => {
  await using t = await tempStore();
  const { service, www, mx } = await seeded(t.store);
  assertEquals([www.domain, www.type, www.value, www.ttl], [
    "www.example.com",
    "A",
    "192.0.2.1",
    3600,
  ]);
  assertMatch(www.id, /^[0-9a-f-]{36}$/);
  assertEquals(mx.value, "10 mail.example.com.");
  assertEquals((await service.getZone("example.com")).records_count, 6);
  assertEquals((await service.listRecords("example.com", "mx")).records.map((r) => r.id), [mx.id]);
});

Deno.test("createRecord() refuses duplicates and enforces CNAME exclusivity", async () => {
  await using t = await tempStore();
  const { service } = await seeded(t.store);
  const create = (domain: string, type: string, value: string) => () =>
    service.createRecord("a", "example.com", { domain, type, value });
  await assertRejects(create("www.example.com", "A", "192.0.2.1"), ConflictError, "already exists");
  await assertRejects(
    create("www.example.com", "CNAME", "x.example.net"),
    ConflictError,
    'Record "www.example.com" of type "CNAME" conflicts with existing data',
  );
  await assertRejects(
    create("alias.example.com", "TXT", "x"),
    ConflictError,
    "conflicts with an existing CNAME",
  );
  await assertRejects(create("example.com", "CNAME", "x.example.net"), ConflictError);
});

Deno.test("createRecord() refuses names outside the zone, bad data, apex NS and data below a delegation", async () => {
  await using t = await tempStore();
  const { service } = await seeded(t.store);
  const create = (domain: string, type: string, value: string, ttl?: number) => () =>
    service.createRecord("a", "example.com", { domain, type, value, ttl });
  await assertRejects(
    create("www.example.org", "A", "192.0.2.1"),
    UnprocessableError,
    "outside zone",
  );
  await assertRejects(create("x.example.com", "A", "300.1.1.1"), ValidationError);
  await assertRejects(create("x.example.com", "A", "1.1.1.1", -1), ValidationError);
  await assertRejects(
    create("example.com", "NS", "ns9.example.net"),
    UnprocessableError,
    "nameservers",
  );
  await assertRejects(
    create("x.sub.example.com", "TXT", "hidden"),
    UnprocessableError,
    "below the delegation",
  );
  await assertRejects(
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
  const { service, www } = await seeded(t.store);
  const fieldOf = async (fn: () => Promise<unknown>) =>
    ((await assertRejects(fn)) as DomainError).field;
  const create = (domain: string, type: string, value: string, ttl?: number) => () =>
    service.createRecord("a", "example.com", { domain, type, value, ttl });
  assertEquals(await fieldOf(create("www.example.org", "A", "192.0.2.1")), "domain");
  assertEquals(await fieldOf(create("bad..name.example.com", "A", "192.0.2.1")), "domain");
  assertEquals(await fieldOf(create("x.example.com", "A", "300.1.1.1")), "value");
  assertEquals(await fieldOf(create("x.example.com", "A", "1.1.1.1", -1)), "ttl");
  assertEquals(await fieldOf(create("x.example.com", "NOPE", "1")), "type");
  assertEquals(await fieldOf(() => service.createZone("a", zone)), "name");
  assertEquals(
    await fieldOf(() => service.createZone("a", { ...zone, name: "bad..name" })),
    "name",
  );
  assertEquals(
    await fieldOf(() => service.createZone("a", { ...zone, admin_email: "nope" })),
    "admin_email",
  );
  assertEquals(await fieldOf(() => service.updateZone("a", "example.com", { retry: 1 })), "retry");
  assertEquals(
    await fieldOf(() => service.updateZone("a", "example.com", { nameservers: [] })),
    "nameservers",
  );
  await service.createRecord("a", "example.com", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.2",
  });
  assertEquals(
    await fieldOf(() => service.updateRecord("a", "example.com", www.id, { value: "192.0.2.2" })),
    "value",
  );
  const outside = await assertRejects(
    () => service.importZone("a", "example.com", "$TTL 60\nwww.example.org. A 192.0.2.1\n"),
    ValidationError,
    'Line 2: name "www.example.org" is outside zone "example.com"',
  );
  assertEquals((outside as ValidationError).field, "name");
  const rule = await assertRejects(
    () => service.importZone("a", "example.com", "$TTL 60\nalias A 192.0.2.1\n"),
    ConflictError,
    'Line 2: Record "alias.example.com" of type "A" conflicts with an existing CNAME',
  );
  assertEquals((rule as ConflictError).field, undefined);
});

Deno.test("updateRecord() is partial, deleteRecord() removes, and the SOA is protected", async () => {
  await using t = await tempStore();
  const { service, clock } = setup(t.store);
  await service.createZone("a", zone);
  const r = await service.createRecord("a", "example.com", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  clock.advance(60_000);
  const u = await service.updateRecord("a", "example.com", r.id, { ttl: 60 });
  assertEquals([u.value, u.ttl, u.created_at, u.updated_at], [
    "192.0.2.1",
    60,
    r.created_at,
    "2026-03-14T12:01:00.000Z",
  ]);
  assertEquals(
    (await service.updateRecord("a", "example.com", r.id, { value: "192.0.2.9" })).ttl,
    60,
  );
  assertEquals((await service.getRecord("example.com", r.id)).value, "192.0.2.9");
  const soa = (await service.listRecords("example.com", "SOA")).records[0];
  await assertRejects(
    () => service.updateRecord("a", "example.com", soa.id, { ttl: 5 }),
    UnprocessableError,
  );
  await assertRejects(() => service.deleteRecord("a", "example.com", soa.id), UnprocessableError);
  assertEquals((await service.deleteRecord("a", "example.com", r.id)).success, true);
  await assertRejects(() => service.getRecord("example.com", r.id), NotFoundError);
});

Deno.test("every change bumps the serial date-based, is audited in its transaction and emits ZoneChanged", async () => {
  await using t = await tempStore();
  const { service, events, clock, audit } = setup(t.store);
  await service.createZone("alice", zone);
  const serials = [(await service.getZone("example.com")).serial];
  for (let i = 0; i < 3; i++) {
    await service.createRecord("alice", "example.com", {
      domain: `h${i}.example.com`,
      type: "A",
      value: `192.0.2.${i}`,
    });
    serials.push((await service.getZone("example.com")).serial);
  }
  assertEquals(serials, [2026031400, 2026031401, 2026031402, 2026031403]);
  clock.advance(86_400_000);
  await service.createRecord("alice", "example.com", {
    domain: "next.example.com",
    type: "A",
    value: "192.0.2.9",
  });
  assertEquals((await service.getZone("example.com")).serial, 2026031500);
  const changes = events.filter((e) => e.type === "ZoneChanged").map((e) => e.payload);
  assertEquals(changes.length, 5);
  assertEquals(changes[4], { zone: "example.com", action: "record_created", serial: 2026031500 });
  const log = await audit.list({ actor: "alice", limit: 10, offset: 0 });
  assertEquals(log.total, 5);
  assertEquals(log.records[0].event_type, "dns.record.created");
  // A failed change leaves no serial bump, audit record or event.
  await assertRejects(() =>
    service.createRecord("alice", "example.com", { domain: "x.example.com", type: "A", value: "x" })
  );
  assertEquals((await service.getZone("example.com")).serial, 2026031500);
  assertEquals((await audit.list({ limit: 10, offset: 0 })).total, 5);
  assertEquals(events.filter((e) => e.type === "ZoneChanged").length, 5);
});
