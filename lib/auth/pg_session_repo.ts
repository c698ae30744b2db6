/** The `sessions` table on PostgreSQL: the twin of `SqliteSessionRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type NewSession,
  type SessionRecord,
  type SessionRepo,
  type SessionRow,
  toRecord,
} from "./session_repo.ts";

export class PgSessionRepo implements SessionRepo {
  constructor(private readonly db: PgAsync) {}

  async insert(s: NewSession): Promise<void> {
    await this.db.sql`
      INSERT INTO sessions (id, secret_hash, user_id, created_at, expires_at, last_seen, address,
                            user_agent)
      VALUES (${s.id}, ${s.secretHash}, ${s.userId}, ${s.createdAt}, ${s.expiresAt},
              ${s.createdAt}, ${s.address}, ${s.userAgent})`;
  }

  async withUser(id: string): Promise<SessionRecord | undefined> {
    const [r] = await this.db.sql<SessionRow[]>`
      SELECT s.id, s.secret_hash, s.created_at, s.expires_at, s.last_seen, s.user_id,
             u.username, u.email, u.role
      FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${id}`;
    return r && toRecord(r);
  }

  async slide(id: string, lastSeen: number, expiresAt: number): Promise<void> {
    await this.db.sql`
      UPDATE sessions SET last_seen = ${lastSeen}, expires_at = ${expiresAt} WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM sessions WHERE id = ${id}`;
  }

  async deleteForUser(userId: string): Promise<number> {
    return (await this.db.sql`DELETE FROM sessions WHERE user_id = ${userId}`).count;
  }

  async deleteExpired(now: number): Promise<number> {
    return (await this.db.sql`DELETE FROM sessions WHERE expires_at <= ${now}`).count;
  }
}
