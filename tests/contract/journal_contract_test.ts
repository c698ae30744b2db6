/**
 * The IXFR journal repository (lib/dns/ixfr/journal_repo.ts,
 * pg_journal_repo.ts) and the triggers that fill its pending rows (SQLite
 * migration 15, the PL/pgSQL twin of the PostgreSQL baseline) behave the
 * same on both engines: the pending changes of each write in order, a zone
 * deleted with its records (a cascade, which tests/store/pg_triggers_test.ts
 * does not cover) leaving none, steps appended, listed, read, trimmed and
 * cleared, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import type { JournalEntry, PendingChange } from "../../lib/dns/ixfr/journal_repo.ts";
import { dnsReposOf, plain, recordRow, soaRow, zoneRow } from "./dns_fixtures.ts";
import { repoContract } from "./engines.ts";

const Z = "example.org";

const change = (
  op: PendingChange["op"],
  rid: string | null,
  name: string | null,
  type: string | null,
  ttl: number | null,
  value: string | null,
): PendingChange => ({ op, rid, name, type, ttl, value });

const entry = (op: "del" | "add", name: string, byte: number): JournalEntry => ({
  op,
  name,
  type: 1,
  ttl: 300,
  rdata: new Uint8Array([192, 0, 2, byte]),
});

repoContract("JournalRepo", {
  "the triggers note each write in order; takePending() hands them over once": async (e) => {
    const { zones, records, journal } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    await records.insert(soaRow(Z));
    assertEquals(plain(await journal.takePending(Z)), [
      change("reset", null, null, null, null, null),
    ]);
    await records.insert(recordRow(Z, "r1", "www.example.org", "A", "192.0.2.1"));
    await records.update("r1", "192.0.2.2", 60, 2000);
    await records.updateSoa(Z, "soa 2", 3600, 2000);
    await records.delete("r1");
    await zones.update(Z, { nameservers: ["ns9.example.net"] });
    await zones.update(Z, { refresh: 1 });
    await zones.setDnssecEnabled(Z, true);
    const soa = soaRow(Z);
    assertEquals(plain(await journal.takePending(Z)), [
      change("add", "r1", "www.example.org", "A", 300, "192.0.2.1"),
      change("del", "r1", "www.example.org", "A", 300, "192.0.2.1"),
      change("add", "r1", "www.example.org", "A", 60, "192.0.2.2"),
      change("soa", soa.id, Z, "SOA", soa.ttl, soa.value),
      change("del", "r1", "www.example.org", "A", 60, "192.0.2.2"),
      change("ns", null, Z, "NS", 3600, JSON.stringify(["ns1.example.org", "ns2.example.org"])),
      change("reset", null, null, null, null, null),
    ]);
    assertEquals(await journal.takePending(Z), []);
  },

  "a zone deleted with its records leaves no pending rows and no journal": async (e) => {
    const { zones, records, journal } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    await zones.insert(zoneRow("other.test"));
    await records.insert(soaRow(Z));
    for (let i = 0; i < 3; i++) {
      await records.insert(recordRow(Z, `r${i}`, `h${i}.example.org`, "A", `192.0.2.${i}`));
    }
    await records.insert(recordRow("other.test", "o1", "www.other.test", "A", "192.0.2.9"));
    await journal.append(Z, 1, 2, [entry("add", "h0.example.org", 0)], 1000);
    await zones.delete(Z);
    const left = await e.raw<{ zone: string; op: string }>(
      "SELECT zone, op FROM dns_journal_pending ORDER BY id",
    );
    assertEquals(left.map((r) => [r.zone, r.op]), [["other.test", "reset"], ["other.test", "add"]]);
    assertEquals(await journal.takePending(Z), []);
    assertEquals(await journal.versions(Z), []);
  },

  "append(), versions(), entries(), dropBefore(), clear()": async (e) => {
    const { zones, records, journal } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    await zones.insert(zoneRow("other.test"));
    await records.insert(recordRow(Z, "r1", "www.example.org", "A", "192.0.2.1"));
    assertEquals(plain(await journal.rrsetRows(Z, "www.example.org", "A")), [
      { id: "r1", name: "www.example.org", type: "A", value: "192.0.2.1", ttl: 300 },
    ]);
    await journal.append(Z, 1, 2, [
      entry("del", "a.example.org", 1),
      entry("add", "a.example.org", 2),
    ], 100);
    await journal.append(Z, 2, 3, [], 200);
    await journal.append(Z, 2, 3, [entry("add", "b.example.org", 3)], 300);
    await journal.append("other.test", 7, 8, [entry("add", "x.other.test", 9)], 300);
    const versions = plain(await journal.versions(Z));
    assertEquals(
      versions.map((v) => [v.serial_from, v.serial_to, v.rows, v.created_at, v.last - v.first]),
      [[1, 2, 2, 100, 1], [2, 3, 1, 300, 0]],
    );
    const read = await journal.entries(Z, versions[0].first, versions[1].last);
    assertEquals(read.map((x) => [x.op, x.name, x.type, x.ttl, [...x.rdata]]), [
      ["del", "a.example.org", 1, 300, [192, 0, 2, 1]],
      ["add", "a.example.org", 1, 300, [192, 0, 2, 2]],
      ["add", "b.example.org", 1, 300, [192, 0, 2, 3]],
    ]);
    assertEquals(read.every((x) => x.rdata.constructor === Uint8Array), true);
    await journal.dropBefore(Z, versions[1].first);
    assertEquals((await journal.versions(Z)).map((v) => v.serial_from), [2]);
    await journal.clear(Z);
    assertEquals(await journal.versions(Z), []);
    assertEquals((await journal.versions("other.test")).length, 1);
    assertEquals(journal.limits.maxVersions, 100);
  },

  "a step and the takes of a transaction that rolls back are undone": async (e) => {
    const { zones, records, journal } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    await journal.takePending(Z);
    await records.insert(recordRow(Z, "r1", "www.example.org", "A", "192.0.2.1"));
    await assertRejects(() =>
      e.transactor.tx(async () => {
        assertEquals((await journal.takePending(Z)).length, 1);
        await journal.append(Z, 1, 2, [entry("add", "www.example.org", 1)], 100);
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals((await journal.takePending(Z)).map((p) => p.rid), ["r1"]);
    assertEquals(await journal.versions(Z), []);
  },
});
