/**
 * The `dns_tsig_keys` table on PostgreSQL: the twin of `SqliteTsigKeyRepo`.
 * As there, listings never select the secret; `withSecret()` alone does.
 */
import { conflictOnUnique } from "../../store/pg/errors.ts";
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type StoredTsigKey,
  toKey,
  type TsigKeyDbRow,
  type TsigKeyRepo,
  type TsigKeyRow,
  tsigTaken,
} from "./key_repo.ts";

const PUBLIC_COLUMNS = ["name", "algorithm", "zones", "permissions", "created_at"];

export class PgTsigKeyRepo implements TsigKeyRepo {
  constructor(private readonly db: PgAsync) {}

  async list(): Promise<TsigKeyRow[]> {
    const sql = this.db.sql;
    const rows = await sql<TsigKeyDbRow[]>`
      SELECT ${sql(PUBLIC_COLUMNS)} FROM dns_tsig_keys ORDER BY name`;
    return rows.map(toKey);
  }

  async get(name: string): Promise<TsigKeyRow | undefined> {
    const sql = this.db.sql;
    const [r] = await sql<TsigKeyDbRow[]>`
      SELECT ${sql(PUBLIC_COLUMNS)} FROM dns_tsig_keys WHERE name = ${name}`;
    return r && toKey(r);
  }

  async withSecret(name: string): Promise<StoredTsigKey | undefined> {
    const sql = this.db.sql;
    const [r] = await sql<TsigKeyDbRow[]>`
      SELECT ${sql(PUBLIC_COLUMNS)}, secret FROM dns_tsig_keys WHERE name = ${name}`;
    return r && { ...toKey(r), secret: r.secret! };
  }

  async insert(k: StoredTsigKey): Promise<void> {
    const t = tsigTaken(k.name);
    const conflict = { message: t.message, field: t.field };
    try {
      await this.db.sql`
        INSERT INTO dns_tsig_keys (name, algorithm, secret, zones, permissions, created_at)
        VALUES (${k.name}, ${k.algorithm}, ${k.secret}, ${JSON.stringify(k.zones)},
                ${JSON.stringify(k.permissions)}, ${k.created_at})`;
    } catch (err) {
      throw conflictOnUnique(err, {}, conflict);
    }
  }

  async delete(name: string): Promise<void> {
    await this.db.sql`DELETE FROM dns_tsig_keys WHERE name = ${name}`;
  }
}
