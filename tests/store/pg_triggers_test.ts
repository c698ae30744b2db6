/**
 * The IXFR journal's PL/pgSQL triggers (PostgreSQL baseline) write the same
 * pending rows as SQLite migration 15's triggers, for the same statements,
 * and the audit trail is append-only on both engines.
 */
import { assertEquals, assertRejects, assertThrows } from "../assert.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";
import { rawExec, rawRows } from "../helpers/raw_sql.ts";
import { tempStore } from "../helpers/temp_store.ts";

const ZONE = `INSERT INTO dns_zones (name, admin_email, serial, refresh, retry, expire, minimum,
  default_ttl, nameservers, created_at, updated_at)
  VALUES ('j.test', 'h.j.test', 1, 3600, 600, 86400, 60, 300, '["ns1.j.test"]', 0, 0)`;
const record = (id: string, type: string, value: string) =>
  `INSERT INTO dns_records (id, zone, name, type, value, ttl, created_at, updated_at)
   VALUES ('${id}', 'j.test', 'w.j.test', '${type}', '${value}', 60, 0, 0)`;

/** Each statement, then the pending rows it left: the journal's view of the change. */
const STEPS = [
  ZONE,
  record("soa", "SOA", "ns1 h 1 3600 600 86400 60"),
  record("r1", "A", "192.0.2.1"),
  record("r2", "A", "192.0.2.2"),
  "UPDATE dns_records SET value = '192.0.2.3' WHERE id = 'r2'",
  "UPDATE dns_records SET value = 'ns1 h 2 3600 600 86400 60' WHERE id = 'soa'",
  "DELETE FROM dns_records WHERE id = 'r1'",
  "UPDATE dns_zones SET nameservers = '[\"ns9.j.test\"]' WHERE name = 'j.test'",
  "UPDATE dns_zones SET ns_ttl = 300 WHERE name = 'j.test'",
  "UPDATE dns_zones SET ns_ttl = 120 WHERE name = 'j.test'",
  "UPDATE dns_zones SET dnssec_enabled = 1 WHERE name = 'j.test'",
  "UPDATE dns_zones SET dnssec_enabled = 1 WHERE name = 'j.test'",
  ZONE.replaceAll("j.test", "k.test"),
  "DELETE FROM dns_zones WHERE name = 'k.test'",
];
const COLUMNS = ["zone", "op", "rid", "name", "type", "ttl", "value"];

Deno.test("the journal triggers write the same pending rows on PostgreSQL as on SQLite", async () => {
  if (!havePostgres("pg triggers")) return;
  await using pg = await startPostgres();
  await using sqlite = await tempStore();
  const store = await PgStore.open({ url: pg.url });
  try {
    for (const [i, step] of STEPS.entries()) {
      rawExec(sqlite.store, step);
      await store.sql.unsafe(step);
      const want = rawRows<Record<string, unknown>>(
        sqlite.store,
        "dns_journal_pending",
        COLUMNS,
        "id",
      )
        .map((r) => ({ ...r }));
      const got = await store.sql.unsafe(
        `SELECT ${COLUMNS.join(", ")} FROM dns_journal_pending ORDER BY id`,
      );
      assertEquals([...got], want, `after step ${i}: ${step}`);
    }
    const audit = `INSERT INTO audit (at, actor, event_type, message, resource_type, resource_id)
      VALUES (1, 'a', 'e', 'm', 't', 'r')`;
    await store.sql.unsafe(audit);
    await assertRejects(() => store.sql.unsafe("UPDATE audit SET message = 'x'"));
    await assertRejects(() => store.sql.unsafe("DELETE FROM audit"));
    rawExec(sqlite.store, audit);
    assertThrows(() => rawExec(sqlite.store, "DELETE FROM audit"));
  } finally {
    await store.close();
  }
});
