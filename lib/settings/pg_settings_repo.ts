/** The `settings` table on PostgreSQL: the twin of `SqliteSettingsRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type SettingRow,
  type SettingsRepo,
  type StoredSetting,
  toSetting,
} from "./settings_repo.ts";

export class PgSettingsRepo implements SettingsRepo {
  constructor(private readonly db: PgAsync) {}

  async all(): Promise<StoredSetting[]> {
    const rows = await this.db.sql<SettingRow[]>`
      SELECT key, value, is_secret, description, updated_at FROM settings ORDER BY key`;
    return rows.map(toSetting);
  }

  async value(key: string): Promise<string | undefined> {
    const rows = await this.db.sql<{ value: string }[]>`
      SELECT value FROM settings WHERE key = ${key}`;
    return rows[0]?.value;
  }

  async upsert(s: StoredSetting): Promise<void> {
    await this.db.sql`
      INSERT INTO settings (key, value, is_secret, description, updated_at)
      VALUES (${s.key}, ${s.value}, ${s.isSecret ? 1 : 0}, ${s.description}, ${s.updatedAt})
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, is_secret = excluded.is_secret,
        description = excluded.description, updated_at = excluded.updated_at`;
  }
}
