/**
 * The zone repository (lib/dns/zone_repo.ts, pg_zone_repo.ts) behaves the
 * same on SQLite and PostgreSQL: CRUD of every field, a taken name as a
 * ConflictError, the listing's order, pages and cursors, a zone deleted with
 * everything of it, rollback, and SOA serials that stay distinct and
 * increasing under concurrent writers.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { ConflictError } from "../../lib/errors.ts";
import { paginateAsync } from "../../lib/paging.ts";
import type { ZoneListing } from "../../lib/dns/zone_repo.ts";
import { dnsReposOf, dnsServiceOf, recordRow, soaRow, zoneRow } from "./dns_fixtures.ts";
import { repoContract } from "./engines.ts";

repoContract("ZoneRepo", {
  "insert, read, change every field, serial, DNSSEC flag, rotation, counts": async (e) => {
    const { zones, records } = dnsReposOf(e);
    assertEquals(await zones.get("example.org"), undefined);
    await zones.insert(zoneRow("example.org", { mname: "primary.example.org", ns_ttl: 86400 }));
    await zones.insert(zoneRow("example.com"));
    assertEquals(
      await zones.get("example.org"),
      zoneRow("example.org", {
        mname: "primary.example.org",
        ns_ttl: 86400,
      }),
    );
    await zones.update("example.org", {
      admin_email: "admin.example.org",
      refresh: 7200,
      nameservers: ["a.example.net"],
      ns_ttl: null,
      mname: null,
    });
    await zones.update("example.org", {});
    await zones.setSerial("example.org", 2024010102, 5000);
    await zones.setDnssecEnabled("example.org", true);
    assertEquals(
      await zones.get("example.org"),
      zoneRow("example.org", {
        admin_email: "admin.example.org",
        refresh: 7200,
        nameservers: ["a.example.net"],
        serial: 2024010102,
        updated_at: 5000,
        dnssec_enabled: true,
      }),
    );
    assertEquals(await zones.zskRotationDays("example.org"), null);
    await zones.setZskRotationDays("example.org", 30);
    await zones.setZskRotationDays("example.com", 7);
    assertEquals(await zones.zskRotationDays("example.org"), 30);
    // example.com rotates only once its DNSSEC is on.
    assertEquals((await zones.zskRotations()).map((r) => ({ ...r })), [{
      zone: "example.org",
      days: 30,
    }]);
    await records.insert(soaRow("example.org"));
    assertEquals(await zones.counts(), { zones: 2, records: 1 });
    assertEquals((await zones.names()).sort(), ["example.com", "example.org"]);
  },

  "a taken name is a ConflictError naming the field": async (e) => {
    const { zones } = dnsReposOf(e);
    await zones.insert(zoneRow("example.org"));
    const err = await assertRejects(
      () => zones.insert(zoneRow("example.org")),
      ConflictError,
    ) as ConflictError;
    assertEquals([err.message, err.field], ['Zone "example.org" already exists', "name"]);
  },

  "list() orders by name with record counts; pages and cursors agree": async (e) => {
    const { zones, records } = dnsReposOf(e);
    const names = ["b.test", "a.test", "Z.test", "a-b.test", "c.test"];
    for (const n of names) await zones.insert(zoneRow(n));
    await records.insert(soaRow("a.test"));
    await records.insert(recordRow("a.test", "r1", "www.a.test", "A", "192.0.2.1"));
    // Code point order: upper case before lower case, "-" before ".".
    const order = ["Z.test", "a-b.test", "a.test", "b.test", "c.test"];
    const all = await zones.list();
    assertEquals(all.map((z) => z.name), order);
    assertEquals(all.find((z) => z.name === "a.test")?.records_count, 2);
    const walk: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await paginateAsync<ZoneListing>({ limit: 2, cursor }, {
        kind: "zones",
        shape: ["s"],
        keyOf: (z) => [z.name],
        rows: (w) => zones.list(w),
        count: async () => (await zones.counts()).zones,
      });
      assertEquals(page.total, 5);
      walk.push(...page.items.map((z) => z.name));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    assertEquals(walk, order);
    assertEquals((await zones.list({ offset: 3, limit: 5 })).map((z) => z.name), [
      "b.test",
      "c.test",
    ]);
  },

  "a deleted zone takes its records, keys and journal with it": async (e) => {
    const { zones, records, journal } = dnsReposOf(e);
    await zones.insert(zoneRow("example.org"));
    await zones.insert(zoneRow("example.com"));
    await records.insert(soaRow("example.org"));
    await records.insert(recordRow("example.org", "r1", "www.example.org", "A", "192.0.2.1"));
    await records.insert(recordRow("example.com", "r2", "www.example.com", "A", "192.0.2.2"));
    await journal.append("example.org", 1, 2, [
      { op: "add", name: "www.example.org", type: 1, ttl: 300, rdata: new Uint8Array([1, 2]) },
    ], 1000);
    await zones.delete("example.org");
    assertEquals(await zones.get("example.org"), undefined);
    assertEquals(await records.count("example.org"), 0);
    assertEquals(await journal.versions("example.org"), []);
    assertEquals(await records.count("example.com"), 1);
  },

  "changes inside a transaction that rolls back are undone": async (e) => {
    const { zones } = dnsReposOf(e);
    await zones.insert(zoneRow("example.org"));
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await zones.insert(zoneRow("example.com"));
        await zones.setSerial("example.org", 9, 9);
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await zones.names(), ["example.org"]);
    assertEquals((await zones.get("example.org"))?.serial, 2024010101);
  },

  "concurrent writers of one zone each move the serial on: distinct, increasing": async (e) => {
    const { zones, records } = dnsReposOf(e);
    await zones.insert(zoneRow("example.org", { serial: 100 }));
    await records.insert(soaRow("example.org"));
    // The service's serial bump: read the serial, write a record and serial + 1, in one
    // transaction (SQLite queues them; PostgreSQL re-runs the loser of a conflict).
    const bump = (i: number) =>
      e.transactor.tx(async () => {
        const z = (await zones.get("example.org"))!;
        await records.insert(
          recordRow("example.org", `r${i}`, `h${i}.example.org`, "A", "192.0.2.1"),
        );
        await zones.setSerial("example.org", z.serial + 1, 2000 + i);
        return z.serial + 1;
      });
    const serials = await Promise.all(Array.from({ length: 8 }, (_, i) => bump(i)));
    assertEquals([...serials].sort((a, b) => a - b), [101, 102, 103, 104, 105, 106, 107, 108]);
    assertEquals((await zones.get("example.org"))?.serial, 108);
    assertEquals(await records.count("example.org"), 9);
  },

  "concurrent record writes through the DNS service: distinct, increasing serials": async (e) => {
    const dns = dnsServiceOf(e);
    const z = await dns.createZone("t", { name: "example.org", admin_email: "h@example.org" });
    const writes = Array.from({ length: 6 }, (_, i) =>
      dns.createRecord("t", "example.org", {
        domain: `h${i}.example.org`,
        type: "A",
        value: `192.0.2.${i + 1}`,
      }));
    await Promise.all(writes);
    // The serial's steps, from the SOA the journal kept of each: one per write, none twice.
    const { journal } = dnsReposOf(e);
    const steps = (await journal.versions("example.org")).map((v) => [v.serial_from, v.serial_to]);
    const serials = [z.serial, ...steps.map(([, to]) => to)];
    assertEquals(steps.length, 6);
    assertEquals(steps.every(([from], i) => from === serials[i]), true, JSON.stringify(steps));
    assertEquals(serials.every((s, i) => i === 0 || s > serials[i - 1]), true);
    assertEquals((await dns.getZone("example.org")).serial, serials[6]);
    assertEquals((await dns.getZone("example.org")).records_count, 7);
  },
});
