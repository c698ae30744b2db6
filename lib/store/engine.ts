/**
 * The storage engine the services are built over: the embedded SQLite store
 * (the default) or a shared PostgreSQL database (issue 27, docs/scaling.md).
 * A domain's composition picks its repositories with `pickRepo()`; nothing
 * above the repositories asks which engine it runs on.
 */
import type { PgAsync } from "./pg/pg_async.ts";
import type { PgStore } from "./pg/pg_store.ts";
import { SqliteAsync } from "./sqlite_async.ts";
import type { Store } from "./store.ts";

export type StoreEngine =
  | { kind: "sqlite"; store: Store; db: SqliteAsync }
  | { kind: "postgres"; store: PgStore; db: PgAsync };

export function sqliteEngine(store: Store): StoreEngine {
  return { kind: "sqlite", store, db: SqliteAsync.of(store) };
}

/** The repository (or repositories) of `engine`'s kind. */
export function pickRepo<T>(
  engine: StoreEngine,
  make: { sqlite: (db: SqliteAsync, store: Store) => T; postgres: (db: PgAsync) => T },
): T {
  return engine.kind === "sqlite" ? make.sqlite(engine.db, engine.store) : make.postgres(engine.db);
}
