/** The `dns_api_keys` table on PostgreSQL: the twin of `SqliteApiKeyRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type ApiKeyRecord,
  type ApiKeyRepo,
  type ApiKeyRow,
  type NewApiKey,
  toApiKey,
} from "./api_key_repo.ts";

export class PgApiKeyRepo implements ApiKeyRepo {
  constructor(private readonly db: PgAsync) {}

  async insert(k: NewApiKey): Promise<void> {
    await this.db.sql`
      INSERT INTO dns_api_keys (id, name, key_hash, scope, created_at, expires_at, created_by)
      VALUES (${k.id}, ${k.name}, ${k.keyHash}, ${JSON.stringify(k.scope)}, ${k.createdAt},
              ${k.expiresAt}, ${k.createdBy})`;
  }

  async byId(id: string): Promise<ApiKeyRecord | undefined> {
    const [r] = await this.db.sql<ApiKeyRow[]>`
      SELECT id, name, key_hash, scope, created_at, expires_at, last_used_at, created_by
      FROM dns_api_keys WHERE id = ${id}`;
    return r && toApiKey(r);
  }

  async byHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const [r] = await this.db.sql<ApiKeyRow[]>`
      SELECT id, name, key_hash, scope, created_at, expires_at, last_used_at, created_by
      FROM dns_api_keys WHERE key_hash = ${keyHash}`;
    return r && toApiKey(r);
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.sql<ApiKeyRow[]>`
      SELECT id, name, key_hash, scope, created_at, expires_at, last_used_at, created_by
      FROM dns_api_keys ORDER BY created_at DESC, id DESC`;
    return rows.map(toApiKey);
  }

  async delete(id: string): Promise<boolean> {
    const res = await this.db.sql`DELETE FROM dns_api_keys WHERE id = ${id}`;
    return res.count > 0;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.sql`UPDATE dns_api_keys SET last_used_at = ${at} WHERE id = ${id}`;
  }
}
