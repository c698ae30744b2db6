/**
 * The `meta` table: internal values (signing keys) keyed by name, never
 * listed through any API. Ported to both engines: the PostgreSQL twin is
 * `pg_meta_repo.ts`, so every instance signs with the one shared secret.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

export interface MetaRepo {
  /** The value stored under `key`; undefined when absent. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` unless a value is already there (the first writer wins). */
  insertIfAbsent(key: string, value: string): Promise<void>;
}

export class SqliteMetaRepo implements MetaRepo {
  constructor(private readonly db: SqliteAsync) {}

  get(key: string): Promise<string | undefined> {
    return this.db.run((store) =>
      store.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", key)?.value
    );
  }

  insertIfAbsent(key: string, value: string): Promise<void> {
    return this.db.run((store) =>
      void store.run(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        key,
        value,
      )
    );
  }
}
