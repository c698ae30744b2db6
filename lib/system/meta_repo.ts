/**
 * The `meta` table: internal values (signing keys) keyed by name, never
 * listed through any API.
 */
import type { Store } from "../store/store.ts";

export interface MetaRepo {
  /** The value stored under `key`; undefined when absent. */
  get(key: string): string | undefined;
  /** Stores `value` under `key` unless a value is already there (the first writer wins). */
  insertIfAbsent(key: string, value: string): void;
}

export class SqliteMetaRepo implements MetaRepo {
  constructor(private readonly store: Store) {}

  get(key: string): string | undefined {
    return this.store.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", key)?.value;
  }

  insertIfAbsent(key: string, value: string): void {
    this.store.run(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
      key,
      value,
    );
  }
}
