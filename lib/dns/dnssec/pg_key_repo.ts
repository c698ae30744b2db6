/**
 * The `dnssec_keys` table on PostgreSQL: the twin of `SqliteDnssecKeyRepo`.
 * As there, listings never select the private key; `signing()` alone does.
 */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type DnssecKeyDbRow,
  type DnssecKeyRepo,
  type DnssecKeyRow,
  type StoredKey,
  toKey,
} from "./key_repo.ts";

/** Every column but `private_key`, for the listings. */
const PUBLIC_COLUMNS = [
  "id",
  "zone_name",
  "algorithm",
  "key_type",
  "bits",
  "flags",
  "public_key",
  "key_tag",
  "state",
  "created_at",
  "publish_at",
  "activate_at",
  "retire_at",
  "remove_at",
  "expires_at",
];

export class PgDnssecKeyRepo implements DnssecKeyRepo {
  constructor(private readonly db: PgAsync) {}

  async list(zone: string): Promise<DnssecKeyRow[]> {
    const sql = this.db.sql;
    const rows = await sql<DnssecKeyDbRow[]>`
      SELECT ${
      sql(PUBLIC_COLUMNS)
    } FROM dnssec_keys WHERE zone_name = ${zone} AND state <> 'removed'
      ORDER BY key_type, activate_at, created_at, id`;
    return rows.map(toKey);
  }

  async listWithRemoved(zone: string): Promise<DnssecKeyRow[]> {
    const sql = this.db.sql;
    const rows = await sql<DnssecKeyDbRow[]>`
      SELECT ${sql(PUBLIC_COLUMNS)} FROM dnssec_keys WHERE zone_name = ${zone}
      ORDER BY state = 'removed', key_type, activate_at, created_at, id`;
    return rows.map(toKey);
  }

  async signing(zone: string): Promise<StoredKey[]> {
    const sql = this.db.sql;
    const rows = await sql<DnssecKeyDbRow[]>`
      SELECT ${sql(PUBLIC_COLUMNS)}, private_key FROM dnssec_keys
      WHERE zone_name = ${zone} AND state = 'active'
      ORDER BY key_type, activate_at, created_at, id`;
    return rows.map((r) => ({ ...toKey(r), private_key: r.private_key! }));
  }

  async dueZones(now: number): Promise<string[]> {
    const rows = await this.db.sql<{ zone_name: string }[]>`
      SELECT DISTINCT zone_name FROM dnssec_keys
      WHERE (state = 'published' AND activate_at <= ${now})
         OR (state = 'active' AND retire_at IS NOT NULL AND retire_at <= ${now})
         OR (state = 'retired' AND remove_at IS NOT NULL AND remove_at <= ${now})
      ORDER BY zone_name`;
    return rows.map((r) => r.zone_name);
  }

  async insert(k: StoredKey): Promise<void> {
    await this.db.sql`
      INSERT INTO dnssec_keys (id, zone_name, algorithm, key_type, bits, flags, public_key,
        private_key, key_tag, state, created_at, publish_at, activate_at, retire_at, remove_at,
        expires_at)
      VALUES (${k.id}, ${k.zone}, ${k.algorithm}, ${k.key_type}, ${k.bits}, ${k.flags},
        ${k.public_key}, ${k.private_key}, ${k.key_tag}, ${k.state}, ${k.created_at},
        ${k.publish_at}, ${k.activate_at}, ${k.retire_at}, ${k.remove_at}, ${k.expires_at})`;
  }

  async schedule(id: string, retireAt: number, removeAt: number): Promise<void> {
    await this.db.sql`
      UPDATE dnssec_keys SET retire_at = ${retireAt}, remove_at = ${removeAt},
        expires_at = ${removeAt} WHERE id = ${id}`;
  }

  async activate(id: string): Promise<void> {
    await this.db.sql`UPDATE dnssec_keys SET state = 'active' WHERE id = ${id}`;
  }

  async retire(id: string, removeAt: number): Promise<void> {
    await this.db.sql`
      UPDATE dnssec_keys SET state = 'retired', remove_at = ${removeAt}, expires_at = ${removeAt}
      WHERE id = ${id}`;
  }

  async remove(id: string): Promise<void> {
    await this.db.sql`
      DELETE FROM dnssec_keys WHERE state = 'removed' AND (zone_name, key_type) =
        (SELECT zone_name, key_type FROM dnssec_keys WHERE id = ${id})`;
    // An empty string, not NULL: the column is NOT NULL, and nothing reads a removed key's.
    await this.db.sql`
      UPDATE dnssec_keys SET state = 'removed', private_key = '' WHERE id = ${id}`;
  }

  async deleteAll(zone: string): Promise<void> {
    await this.db.sql`DELETE FROM dnssec_keys WHERE zone_name = ${zone}`;
  }
}
