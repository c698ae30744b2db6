/**
 * Counts the SQL statements a store runs, for tests that bound work by
 * counting it rather than timing it. Wraps the store's statement cache and
 * its connection's `prepare` (where repositories keep statements of their
 * own), so statements prepared after `traceSql` are counted on every run.
 */
import type { StatementSync } from "node:sqlite";
import type { Store } from "../../lib/store/store.ts";

const RUNS = new Set(["all", "get", "run", "iterate"]);

export interface SqlTrace {
  /** The statements run since the last `take()` (or since tracing began), SQL with spaces squeezed. */
  take(): string[];
}

/** Starts counting; call before the code under test prepares its statements (e.g. first thing). */
export function traceSql(store: Store): SqlTrace {
  let seen: string[] = [];
  const counting = (sql: string, stmt: StatementSync): StatementSync =>
    new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (RUNS.has(String(prop))) seen.push(sql.replace(/\s+/g, " ").trim());
          return value.apply(target, args);
        };
      },
    });
  const stmt = store.stmt.bind(store);
  store.stmt = (sql: string) => counting(sql, stmt(sql));
  const prepare = store.db.prepare.bind(store.db);
  store.db.prepare = ((sql: string, ...rest: unknown[]) =>
    counting(
      sql,
      (prepare as (...a: unknown[]) => StatementSync)(sql, ...rest),
    )) as typeof prepare;
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
  };
}
