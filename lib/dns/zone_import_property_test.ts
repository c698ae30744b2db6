/**
 * Properties of zone import (zone_import.ts) over a real store: a file of
 * valid records is refused with a domain error or imported; an imported
 * zone's export imports into a fresh store to the same export, and the
 * zone's own fields (nameservers, contact) are ones the API accepts back.
 */
import fc from "fast-check";
import { assert, assertEquals } from "../../tests/assert.ts";
import { checkAsync, propertySeed } from "../../tests/dns/property.ts";
import { rdataCase } from "../../tests/dns/rdata_arbitraries.ts";
import { hostName, lower, nameField } from "../../tests/dns/rdata_fields.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { DomainError } from "../errors.ts";
import { soaValue } from "./soa.ts";
import { serializeZoneFile } from "./zone_file.ts";

const runs = propertySeed("zone_import_property_test");
const ZONE = "prop.test";

const owner = fc.tuple(
  fc.boolean(),
  fc.array(fc.constantFrom("a", "b", "_x", ...lower.slice(0, 3)), { maxLength: 2 }),
).map(([wild, ls]) => [...(wild ? ["*"] : []), ...ls, ZONE].join("."));

/** Apex NS values: host names mostly, sometimes any name an NS record may hold (the root, "/"). */
const apexNs = fc.oneof(
  { weight: 6, arbitrary: hostName(false).map((n) => `${n}.`) },
  { weight: 1, arbitrary: nameField(null).map((n) => n.canonical) },
);

/** SOA timers, consistent (RFC 1912 §2.2) mostly: retry ≤ refresh ≤ refresh + retry ≤ expire. */
const timers = fc.record({
  refresh: fc.integer({ min: 60, max: 86400 }),
  retry: fc.integer({ min: 60, max: 86400 }),
  expire: fc.integer({ min: 3600, max: 31536000 }),
  consistent: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, fc.constant(false)),
}).map(({ consistent, ...t }) =>
  consistent
    ? { ...t, retry: Math.min(t.retry, t.refresh), expire: Math.max(t.expire, 2 * t.refresh) }
    : t
);

/** A zone file as serializeZoneFile writes it: SOA, apex NS (any name an NS may hold), records. */
const zoneFile = fc.record({
  default_ttl: fc.integer({ min: 0, max: 604800 }),
  soa: fc.record({
    primary: fc.constantFrom(`ns1.${ZONE}`, "ns.example.net"),
    admin_email: fc.constantFrom(`h@${ZONE}`, "first.last@example.org"),
    serial: fc.integer({ min: 0, max: 4294967295 }),
    minimum: fc.integer({ min: 0, max: 86400 }),
  }),
  timers,
  apexNs: fc.array(apexNs, { maxLength: 3 }),
  records: fc.array(fc.record({ name: owner, data: rdataCase, ttl: fc.nat(86400) }), {
    maxLength: 8,
  }),
}).map((z) =>
  serializeZoneFile({
    name: ZONE,
    default_ttl: z.default_ttl,
    soa: {
      ttl: z.default_ttl,
      value: soaValue({ ...z.soa, ...z.timers, name: ZONE, default_ttl: 0 }),
    },
    records: [
      ...z.apexNs.map((value) => ({ name: ZONE, type: "NS", ttl: z.default_ttl, value })),
      ...z.records.map((r) => ({
        name: r.name,
        type: r.data.type,
        ttl: r.ttl,
        value: r.data.canonical,
      })),
    ],
  })
);

Deno.test("importZone(): a file is refused with a domain error, or imported to a zone the API takes back and that re-imports unchanged", async () => {
  await using first = await tempStore();
  await using second = await tempStore();
  const a = dnsTestService(first.store).service;
  const b = dnsTestService(second.store).service;
  let imported = 0;
  await checkAsync(
    fc.asyncProperty(zoneFile, async (text) => {
      try {
        await a.importZone("t", ZONE, text);
      } catch (err) {
        assert(err instanceof DomainError, `threw ${err}`);
        return;
      }
      imported++;
      try {
        const exported = await a.exportZone(ZONE);
        await b.importZone("t", ZONE, exported);
        assertEquals(await b.exportZone(ZONE), exported);
        const z = await a.getZone(ZONE);
        await a.updateZone("t", ZONE, { nameservers: z.nameservers, admin_email: z.admin_email });
      } finally {
        await a.deleteZone("t", ZONE);
        if ((await b.listZones()).length) await b.deleteZone("t", ZONE);
      }
    }),
    runs(150),
  );
  assert(imported > 0, "some files were imported");
});
