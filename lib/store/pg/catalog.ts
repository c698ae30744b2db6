/**
 * The tables and columns of each engine, read from its own catalog: what
 * `db:copy` copies and what the schema comparison test compares.
 */
import type { DatabaseSync } from "node:sqlite";
import type { Sql } from "./pg_store.ts";

/** One table: its name, its columns in order, the tables its foreign keys point to. */
export interface TableInfo {
  name: string;
  columns: string[];
  references: string[];
}

/** Tables of PostgreSQL that SQLite has no twin of: the migration runner's own. */
export const PG_ONLY_TABLES = ["schema_migrations"];

/** SQLite identifiers come from the schema itself; quoting keeps odd names whole. */
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The ordinary tables of a SQLite database (its own `sqlite_*` left out), by name. */
export function sqliteTables(db: DatabaseSync): TableInfo[] {
  const names = (db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all() as { name: string }[]).map((r) => r.name);
  return names.map((name) => ({
    name,
    columns: (db.prepare(`PRAGMA table_info(${quote(name)})`).all() as { name: string }[])
      .map((c) => c.name),
    references: [
      ...new Set(
        (db.prepare(`PRAGMA foreign_key_list(${quote(name)})`).all() as { table: string }[])
          .map((f) => f.table),
      ),
    ],
  }));
}

/** The base tables of the current PostgreSQL schema, by name. */
export async function pgTables(sql: Sql): Promise<TableInfo[]> {
  const cols = await sql<{ table_name: string; column_name: string }[]>`
    SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`;
  const refs = await sql<{ table_name: string; target: string }[]>`
    SELECT DISTINCT cl.relname AS table_name, ref.relname AS target
      FROM pg_constraint con
      JOIN pg_class cl ON cl.oid = con.conrelid
      JOIN pg_class ref ON ref.oid = con.confrelid
     WHERE con.contype = 'f' AND cl.relnamespace = current_schema()::regnamespace`;
  const byName = new Map<string, TableInfo>();
  for (const c of cols) {
    const t = byName.get(c.table_name) ??
      { name: c.table_name, columns: [], references: [] };
    t.columns.push(c.column_name);
    byName.set(c.table_name, t);
  }
  for (const r of refs) byName.get(r.table_name)?.references.push(r.target);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** `tables` ordered so that each comes after the tables its foreign keys point to. */
export function dependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out: TableInfo[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (t: TableInfo) => {
    if (state.get(t.name) === "done") return;
    if (state.get(t.name) === "visiting") throw new Error(`Foreign key cycle at "${t.name}"`);
    state.set(t.name, "visiting");
    for (const r of t.references) {
      const dep = byName.get(r);
      if (dep && dep !== t) visit(dep);
    }
    state.set(t.name, "done");
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}
