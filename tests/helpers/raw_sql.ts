/**
 * Raw reads and writes of stored rows, for tests that check what a
 * repository wrote beyond what it exposes, or that change a row by hand as
 * an operator might. Table and column names are the test's own literals.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { Sql as PgSql } from "../../lib/store/pg/pg_store.ts";
import type { Store } from "../../lib/store/store.ts";

function whereOf(where: Record<string, SQLInputValue>): { sql: string; params: SQLInputValue[] } {
  const keys = Object.keys(where);
  return {
    sql: keys.length ? ` WHERE ${keys.map((k) => `${k} = ?`).join(" AND ")}` : "",
    params: Object.values(where),
  };
}

/** The given columns of the first row of `table` matching `where`. */
export function rawRow<T>(
  store: Store,
  table: string,
  columns: string[],
  where: Record<string, SQLInputValue> = {},
): T | undefined {
  const w = whereOf(where);
  return store.get<T>(`SELECT ${columns.join(", ")} FROM ${table}${w.sql}`, ...w.params);
}

/** Sets columns of the rows of `table` matching `where`, as a hand edit would. */
export function rawSet(
  store: Store,
  table: string,
  set: Record<string, SQLInputValue>,
  where: Record<string, SQLInputValue> = {},
): void {
  const w = whereOf(where);
  const assignments = Object.keys(set).map((k) => `${k} = ?`).join(", ");
  store.run(`UPDATE ${table} SET ${assignments}${w.sql}`, ...Object.values(set), ...w.params);
}

/** Deletes the rows of `table` matching `where`, as a hand edit would. */
export function rawDelete(
  store: Store,
  table: string,
  where: Record<string, SQLInputValue> = {},
): void {
  const w = whereOf(where);
  store.run(`DELETE FROM ${table}${w.sql}`, ...w.params);
}

/** Runs a statement of the test's own (a scratch table to fill a file, for instance). */
export function rawExec(store: Store, sql: string, ...params: SQLInputValue[]): void {
  store.run(sql, ...params);
}

/** The given columns of every row of `table` matching `where`, in `order`. */
export function rawRows<T>(
  store: Store,
  table: string,
  columns: string[],
  order: string,
  where: Record<string, SQLInputValue> = {},
): T[] {
  const w = whereOf(where);
  return store.all<T>(
    `SELECT ${columns.join(", ")} FROM ${table}${w.sql} ORDER BY ${order}`,
    ...w.params,
  );
}

/** Every row of every table, as sorted JSON lines per table: what a copy must preserve. */
export function rawDump(db: DatabaseSync, tables: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    out[t] = normalized(db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]);
  }
  return out;
}

/** `rawDump` of a PostgreSQL database, through a postgres.js connection. */
export async function rawPgDump(sql: PgSql, tables: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    out[t] = normalized(await sql<Record<string, unknown>[]>`SELECT * FROM ${sql(t)}`);
  }
  return out;
}

/** Rows as JSON with sorted keys and blobs in hex, sorted: equal on both engines when equal in value. */
function normalized(rows: Iterable<Record<string, unknown>>): string[] {
  const line = (r: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(r).sort().map((k) => {
        const v = r[k];
        return [
          k,
          v instanceof Uint8Array
            ? `hex:${Array.from(v, (b) => b.toString(16).padStart(2, "0")).join("")}`
            : v,
        ];
      }),
    );
  return [...rows].map(line).sort();
}
