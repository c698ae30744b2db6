/** The `user_totp` and `user_recovery_codes` tables on PostgreSQL: the twin of `SqliteTotpRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import { toTotp, type TotpRecord, type TotpRepo, type TotpRow } from "./totp_repo.ts";

export class PgTotpRepo implements TotpRepo {
  constructor(private readonly db: PgAsync) {}

  async byUser(userId: string): Promise<TotpRecord | undefined> {
    const [r] = await this.db.sql<TotpRow[]>`
      SELECT user_id, secret, created_at, enabled_at, last_step FROM user_totp
      WHERE user_id = ${userId}`;
    return r && toTotp(r);
  }

  async enabledUsers(userIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.sql<{ user_id: string }[]>`
      SELECT user_id FROM user_totp
      WHERE enabled_at IS NOT NULL AND user_id = ANY(${userIds as string[]}::text[])`;
    return new Set(rows.map((r) => r.user_id));
  }

  async begin(userId: string, secret: string, at: number): Promise<void> {
    await this.db.sql`DELETE FROM user_recovery_codes WHERE user_id = ${userId}`;
    await this.db.sql`
      INSERT INTO user_totp (user_id, secret, created_at) VALUES (${userId}, ${secret}, ${at})
      ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
        created_at = excluded.created_at, enabled_at = NULL, last_step = NULL`;
  }

  async enable(userId: string, step: number, at: number, codeHashes: string[]): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE user_totp SET enabled_at = ${at}, last_step = ${step}
      WHERE user_id = ${userId} AND enabled_at IS NULL`;
    if (r.count !== 1) return false;
    await this.db.sql`DELETE FROM user_recovery_codes WHERE user_id = ${userId}`;
    for (const h of codeHashes) {
      await this.db.sql`
        INSERT INTO user_recovery_codes (user_id, code_hash) VALUES (${userId}, ${h})`;
    }
    return true;
  }

  async claimStep(userId: string, step: number): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE user_totp SET last_step = ${step}
      WHERE user_id = ${userId} AND enabled_at IS NOT NULL
        AND (last_step IS NULL OR last_step < ${step})`;
    return r.count === 1;
  }

  async useRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE user_recovery_codes SET used_at = ${at}
      WHERE user_id = ${userId} AND code_hash = ${codeHash} AND used_at IS NULL`;
    return r.count === 1;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const [r] = await this.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM user_recovery_codes
      WHERE user_id = ${userId} AND used_at IS NULL`;
    return Number(r?.n ?? 0);
  }

  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean> {
    const [on] = await this.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM user_totp
      WHERE user_id = ${userId} AND enabled_at IS NOT NULL`;
    if (!Number(on?.n)) return false;
    await this.db.sql`DELETE FROM user_recovery_codes WHERE user_id = ${userId}`;
    for (const h of codeHashes) {
      await this.db.sql`
        INSERT INTO user_recovery_codes (user_id, code_hash) VALUES (${userId}, ${h})`;
    }
    return true;
  }

  async remove(userId: string): Promise<void> {
    await this.db.sql`DELETE FROM user_recovery_codes WHERE user_id = ${userId}`;
    await this.db.sql`DELETE FROM user_totp WHERE user_id = ${userId}`;
  }
}
