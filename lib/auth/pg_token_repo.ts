/** The `api_tokens` table on PostgreSQL: the twin of `SqliteTokenRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type NewToken,
  type TokenRecord,
  type TokenRepo,
  type TokenRow,
  toRecord,
} from "./token_repo.ts";

export class PgTokenRepo implements TokenRepo {
  constructor(private readonly db: PgAsync) {}

  async insert(t: NewToken): Promise<void> {
    await this.db.sql`
      INSERT INTO api_tokens (id, user_id, name, token_hash, created_at, expires_at)
      VALUES (${t.id}, ${t.userId}, ${t.name}, ${t.tokenHash}, ${t.createdAt}, ${t.expiresAt})`;
  }

  async byId(id: string): Promise<TokenRecord | undefined> {
    const [r] = await this.db.sql<TokenRow[]>`
      SELECT t.id, t.user_id, t.name, t.token_hash, t.created_at, t.expires_at, t.last_used_at,
             u.username, u.email, u.role
      FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ${id}`;
    return r && toRecord(r);
  }

  async listAll(): Promise<TokenRecord[]> {
    const rows = await this.db.sql<TokenRow[]>`
      SELECT t.id, t.user_id, t.name, t.token_hash, t.created_at, t.expires_at, t.last_used_at,
             u.username, u.email, u.role
      FROM api_tokens t JOIN users u ON u.id = t.user_id
      ORDER BY t.created_at DESC, t.id DESC`;
    return rows.map(toRecord);
  }

  async listOf(userId: string): Promise<TokenRecord[]> {
    const rows = await this.db.sql<TokenRow[]>`
      SELECT t.id, t.user_id, t.name, t.token_hash, t.created_at, t.expires_at, t.last_used_at,
             u.username, u.email, u.role
      FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.user_id = ${userId}
      ORDER BY t.created_at DESC, t.id DESC`;
    return rows.map(toRecord);
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM api_tokens WHERE id = ${id}`;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.sql`UPDATE api_tokens SET last_used_at = ${at} WHERE id = ${id}`;
  }
}
