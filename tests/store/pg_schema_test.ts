/**
 * The PostgreSQL baseline has the tables and columns of a freshly migrated
 * SQLite store, so that repository rows have the same shape on both
 * engines. The only exception is `schema_migrations`, the PostgreSQL
 * migration runner's bookkeeping (SQLite keeps its version in
 * `PRAGMA user_version`).
 */
import { assert, assertEquals } from "../assert.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";
import { tempStore } from "../helpers/temp_store.ts";
import { PG_ONLY_TABLES, pgTables, sqliteTables } from "../../lib/store/pg/catalog.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";

Deno.test("a migrated PostgreSQL database has the tables and columns of a migrated SQLite store", async () => {
  if (!havePostgres("pg schema")) return;
  await using pg = await startPostgres();
  await using sqlite = await tempStore();
  const store = await PgStore.open({ url: pg.url });
  try {
    const pgSide = await pgTables(store.sql);
    assertEquals(
      pgSide.filter((t) => PG_ONLY_TABLES.includes(t.name)).map((t) => t.name),
      ["schema_migrations"],
    );
    const columnsOf = (ts: { name: string; columns: string[] }[]) =>
      Object.fromEntries(
        ts.filter((t) => !PG_ONLY_TABLES.includes(t.name)).map((t) => [t.name, t.columns]),
      );
    const sqliteSide = sqliteTables(sqlite.store.db);
    // Same tables, and per table the same columns in the same order.
    assertEquals(columnsOf(pgSide), columnsOf(sqliteSide));
    assert(sqliteSide.length >= 24, "the tables of every SQLite migration are all there");
    // Text sorts by code point, as SQLite's BINARY does, whatever the database's locale.
    const collations = await store.sql<{ c: string }[]>`
      SELECT DISTINCT coalesce(collation_name, 'default') AS c FROM information_schema.columns
       WHERE table_schema = current_schema() AND data_type = 'text' AND table_name <> 'schema_migrations'`;
    assertEquals(collations.map((r) => r.c), ["C"]);
  } finally {
    await store.close();
  }
});
