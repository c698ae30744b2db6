/**
 * Raw reads and writes of stored rows, for tests that check what a
 * repository wrote beyond what it exposes, or that change a row by hand as
 * an operator might. Table and column names are the test's own literals.
 */
import type { SQLInputValue } from "node:sqlite";
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
