/** The `user_passkeys` and `passkey_challenges_used` tables on PostgreSQL: the twin of `SqlitePasskeyRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type PasskeyRecord,
  type PasskeyRepo,
  type PasskeyRow,
  toPasskey,
} from "./passkey_repo.ts";

export class PgPasskeyRepo implements PasskeyRepo {
  constructor(private readonly db: PgAsync) {}

  async list(userId: string): Promise<PasskeyRecord[]> {
    const rows = await this.db.sql<PasskeyRow[]>`
      SELECT id, user_id, name, credential_id, public_key, counter, transports, created_at,
        last_used_at
      FROM user_passkeys WHERE user_id = ${userId} ORDER BY created_at, id`;
    return rows.map(toPasskey);
  }

  async count(userId: string): Promise<number> {
    const [r] = await this.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM user_passkeys WHERE user_id = ${userId}`;
    return Number(r?.n ?? 0);
  }

  async countsByUser(userIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.db.sql<{ user_id: string; n: number }[]>`
      SELECT user_id, count(*)::int AS n FROM user_passkeys
      WHERE user_id = ANY(${userIds as string[]}::text[]) GROUP BY user_id`;
    return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
  }

  async byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined> {
    const [r] = await this.db.sql<PasskeyRow[]>`
      SELECT id, user_id, name, credential_id, public_key, counter, transports, created_at,
        last_used_at
      FROM user_passkeys WHERE credential_id = ${credentialId}`;
    return r && toPasskey(r);
  }

  async add(p: PasskeyRecord): Promise<boolean> {
    const r = await this.db.sql`
      INSERT INTO user_passkeys (id, user_id, name, credential_id, public_key, counter,
        transports, created_at, last_used_at)
      VALUES (${p.id}, ${p.userId}, ${p.name}, ${p.credentialId}, ${p.publicKey}, ${p.counter},
        ${p.transports.join(",")}, ${p.createdAt}, ${p.lastUsedAt})
      ON CONFLICT (credential_id) DO NOTHING`;
    return r.count === 1;
  }

  async rename(userId: string, id: string, name: string): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE user_passkeys SET name = ${name} WHERE id = ${id} AND user_id = ${userId}`;
    return r.count === 1;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const r = await this.db.sql`DELETE FROM user_passkeys WHERE id = ${id} AND user_id = ${userId}`;
    return r.count === 1;
  }

  async removeAll(userId: string): Promise<number> {
    const r = await this.db.sql`DELETE FROM user_passkeys WHERE user_id = ${userId}`;
    return r.count;
  }

  async use(id: string, seen: number, counter: number, at: number): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE user_passkeys SET counter = ${counter}, last_used_at = ${at}
      WHERE id = ${id} AND counter = ${seen}`;
    return r.count === 1;
  }

  async takeChallenge(hash: string, expiresAt: number, now: number): Promise<boolean> {
    await this.db.sql`DELETE FROM passkey_challenges_used WHERE expires_at <= ${now}`;
    const r = await this.db.sql`
      INSERT INTO passkey_challenges_used (challenge_hash, expires_at)
      VALUES (${hash}, ${expiresAt}) ON CONFLICT (challenge_hash) DO NOTHING`;
    return r.count === 1;
  }
}
