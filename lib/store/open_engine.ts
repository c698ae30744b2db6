/**
 * Opens the store the configuration names: the SQLite file in the data
 * folder, or the PostgreSQL database of `PALISADE_DATABASE_URL` (migrated on
 * open; instances starting together wait for each other's migration).
 */
import { ATTEST_STORE_TUNING } from "../attest/store_tuning.ts";
import type { Config } from "../config/config.ts";
import { sqliteEngine, type StoreEngine } from "./engine.ts";
import { PgAsync } from "./pg/pg_async.ts";
import { PgStore, type PgStoreOptions } from "./pg/pg_store.ts";
import { Store } from "./store.ts";

export async function openEngine(config: Config): Promise<StoreEngine> {
  const { url, poolSize, statementTimeoutMs } = config.database;
  if (url !== null) return await openPgEngine({ url, poolSize, statementTimeoutMs });
  return sqliteEngine(Store.open(`${config.dataDir}/palisade.db`, { tuning: ATTEST_STORE_TUNING }));
}

/** The PostgreSQL engine over `options.url`, migrated. */
export async function openPgEngine(options: PgStoreOptions): Promise<StoreEngine> {
  const store = await PgStore.open(options);
  return { kind: "postgres", store, db: PgAsync.of(store) };
}

/** Closes the engine's connection (SQLite) or pool (PostgreSQL). */
export async function closeEngine(engine: StoreEngine): Promise<void> {
  if (engine.kind === "sqlite") engine.store.close();
  else await engine.store.close();
}

/** Where the store is, for messages: the file, or the database without user and password. */
export function engineLocation(config: Config): string {
  const { url } = config.database;
  if (url === null) return `${config.dataDir}/palisade.db`;
  const u = new URL(url);
  return `postgres://${u.host}${u.pathname}`;
}
