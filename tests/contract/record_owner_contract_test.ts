/**
 * The record owner repository (lib/dns/record_owner_repo.ts,
 * pg_record_owner_repo.ts) behaves the same on SQLite and PostgreSQL: marks
 * are read back per record and per owner (records by zone, name, type,
 * value), a record deleted by any path takes its mark with it, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgRecordOwnerRepo } from "../../lib/dns/pg_record_owner_repo.ts";
import { type RecordOwnerRepo, SqliteRecordOwnerRepo } from "../../lib/dns/record_owner_repo.ts";
import { dnsReposOf, recordRow, soaRow, zoneRow } from "./dns_fixtures.ts";
import { type Engine, repoContract } from "./engines.ts";

const Z = "example.org";

async function seeded(e: Engine) {
  const { zones, records } = dnsReposOf(e);
  const owners = e.pick<RecordOwnerRepo>({
    sqlite: (db) => new SqliteRecordOwnerRepo(db),
    postgres: (db) => new PgRecordOwnerRepo(db),
  });
  for (const z of [Z, "b.test"]) {
    await zones.insert(zoneRow(z));
    await records.insert(soaRow(z));
  }
  await records.insert(recordRow(Z, "r1", "www.example.org", "A", "192.0.2.2"));
  await records.insert(recordRow(Z, "r2", "alice.example.org", "A", "10.0.0.2"));
  await records.insert(recordRow("b.test", "r3", "alice.b.test", "A", "10.0.0.3"));
  await records.insert(recordRow(Z, "r4", "bob.example.org", "A", "10.0.0.4"));
  return { zones, records, owners };
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

repoContract("RecordOwnerRepo", {
  "marks are read per record and per owner, records by zone, name, type and value": async (e) => {
    const { owners } = await seeded(e);
    await owners.mark("r3", "peer:a");
    await owners.mark("r2", "peer:a");
    await owners.mark("r4", "peer:b");
    assertEquals(await owners.ownerOf("r2"), "peer:a");
    assertEquals(await owners.ownerOf("r1"), undefined);
    assertEquals(ids(await owners.recordsOf("peer:a")), ["r3", "r2"]);
    const [r] = await owners.recordsOf("peer:b");
    assertEquals(
      { ...r, created_at: 0, updated_at: 0 },
      {
        id: "r4",
        zone: Z,
        name: "bob.example.org",
        type: "A",
        value: "10.0.0.4",
        ttl: r.ttl,
        created_at: 0,
        updated_at: 0,
      },
    );
    assertEquals(await owners.recordsOf("peer:none"), []);
  },

  "a deleted record, or a deleted zone's records, take their marks with them": async (e) => {
    const { zones, records, owners } = await seeded(e);
    await owners.mark("r2", "peer:a");
    await owners.mark("r3", "peer:a");
    await records.delete("r2");
    assertEquals(ids(await owners.recordsOf("peer:a")), ["r3"]);
    await zones.delete("b.test");
    assertEquals(await owners.recordsOf("peer:a"), []);
    assertEquals(await owners.ownerOf("r3"), undefined);
  },

  "marks inside a transaction that rolls back are undone": async (e) => {
    const { owners } = await seeded(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await owners.mark("r2", "peer:a");
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await owners.ownerOf("r2"), undefined);
  },
});
