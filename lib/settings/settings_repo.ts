/** The `settings` table: one row per key that has been set. */
import type { Store } from "../store/store.ts";

/** A stored setting; `updatedAt` is Unix milliseconds. */
export interface StoredSetting {
  key: string;
  value: string;
  isSecret: boolean;
  description: string;
  updatedAt: number;
}

export interface SettingsRepo {
  /** Every stored setting, in no particular order. */
  all(): StoredSetting[];
  /** The stored value of `key`; undefined when unset. */
  value(key: string): string | undefined;
  /** Inserts or replaces the row of `setting.key`. */
  upsert(setting: StoredSetting): void;
}

interface SettingRow {
  key: string;
  value: string;
  is_secret: number;
  description: string;
  updated_at: number;
}

export class SqliteSettingsRepo implements SettingsRepo {
  constructor(private readonly store: Store) {}

  all(): StoredSetting[] {
    return this.store.all<SettingRow>(
      "SELECT key, value, is_secret, description, updated_at FROM settings",
    ).map((r) => ({
      key: r.key,
      value: r.value,
      isSecret: r.is_secret !== 0,
      description: r.description,
      updatedAt: r.updated_at,
    }));
  }

  value(key: string): string | undefined {
    return this.store.get<{ value: string }>("SELECT value FROM settings WHERE key = ?", key)
      ?.value;
  }

  upsert(s: StoredSetting): void {
    this.store.run(
      `INSERT INTO settings (key, value, is_secret, description, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, is_secret = excluded.is_secret,
         description = excluded.description, updated_at = excluded.updated_at`,
      s.key,
      s.value,
      s.isSecret ? 1 : 0,
      s.description,
      s.updatedAt,
    );
  }
}
