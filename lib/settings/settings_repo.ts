/**
 * The `settings` table: one row per key that has been set. The first
 * repository ported to both engines (docs/architecture.md, "Repositories"):
 * the interface is asynchronous, `SqliteSettingsRepo` runs the synchronous
 * statements through `SqliteAsync`, and `PgSettingsRepo`
 * (`pg_settings_repo.ts`) is the PostgreSQL twin.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** A stored setting; `updatedAt` is Unix milliseconds. */
export interface StoredSetting {
  key: string;
  value: string;
  isSecret: boolean;
  description: string;
  updatedAt: number;
}

export interface SettingsRepo {
  /** Every stored setting, ordered by key. */
  all(): Promise<StoredSetting[]>;
  /** The stored value of `key`; undefined when unset. */
  value(key: string): Promise<string | undefined>;
  /** Inserts or replaces the row of `setting.key`. */
  upsert(setting: StoredSetting): Promise<void>;
}

/** A row as both engines return it (0/1 flag, ms timestamp). */
export interface SettingRow {
  key: string;
  value: string;
  is_secret: number;
  description: string;
  updated_at: number;
}

export const toSetting = (r: SettingRow): StoredSetting => ({
  key: r.key,
  value: r.value,
  isSecret: r.is_secret !== 0,
  description: r.description,
  updatedAt: r.updated_at,
});

const VALUE = "SELECT value FROM settings WHERE key = ?";

export class SqliteSettingsRepo implements SettingsRepo {
  constructor(private readonly db: SqliteAsync) {}

  all(): Promise<StoredSetting[]> {
    return this.db.run((s) =>
      s.all<SettingRow>(
        "SELECT key, value, is_secret, description, updated_at FROM settings ORDER BY key",
      ).map(toSetting)
    );
  }

  value(key: string): Promise<string | undefined> {
    return this.db.run((s) => s.get<{ value: string }>(VALUE, key)?.value);
  }

  upsert(s: StoredSetting): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO settings (key, value, is_secret, description, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, is_secret = excluded.is_secret,
           description = excluded.description, updated_at = excluded.updated_at`,
        s.key,
        s.value,
        s.isSecret ? 1 : 0,
        s.description,
        s.updatedAt,
      );
    });
  }
}
