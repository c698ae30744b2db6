/**
 * The `user_totp` and `user_recovery_codes` tables: each user's TOTP secret
 * (sealed; lib/auth/two_factor.ts) and one-time recovery code hashes. Ported
 * to both engines: the PostgreSQL twin is `pg_totp_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** A user's TOTP enrolment; times are Unix milliseconds. */
export interface TotpRecord {
  userId: string;
  /** The sealed secret, never the raw one. */
  secret: string;
  createdAt: number;
  /** Null while enrolment waits for its first code. */
  enabledAt: number | null;
  /** The last time step accepted. */
  lastStep: number | null;
}

export interface TotpRepo {
  byUser(userId: string): Promise<TotpRecord | undefined>;
  /** Which of `userIds` have TOTP on (a pending enrolment is not), in one query. */
  enabledUsers(userIds: readonly string[]): Promise<Set<string>>;
  /** Starts (or restarts) enrolment: a pending row with `secret`; its recovery codes go. */
  begin(userId: string, secret: string, at: number): Promise<void>;
  /**
   * Turns a pending enrolment on with step `step` taken and `codeHashes` as
   * the recovery codes; false (and nothing written) when none was pending,
   * so two confirmations racing cannot both hand out recovery codes.
   */
  enable(userId: string, step: number, at: number, codeHashes: string[]): Promise<boolean>;
  /**
   * Takes time step `step` for an enabled user: true when no step at or after
   * it was taken before, in one statement so two logins cannot both take it.
   */
  claimStep(userId: string, step: number): Promise<boolean>;
  /** Marks the unused recovery code `codeHash` used; false when it is unknown or used. */
  useRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean>;
  /** How many recovery codes of the user are still unused. */
  recoveryCodesLeft(userId: string): Promise<number>;
  /**
   * Replaces every recovery code of an enabled user (used or not) with
   * `codeHashes`; false (nothing written) when two-factor sign-in is not on.
   */
  replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean>;
  /** Removes the user's enrolment and recovery codes. */
  remove(userId: string): Promise<void>;
}

/** A `user_totp` row as both engines return it. */
export interface TotpRow {
  user_id: string;
  secret: string;
  created_at: number;
  enabled_at: number | null;
  last_step: number | null;
}

const num = (v: number | string | null) => v === null ? null : Number(v);

export const toTotp = (r: TotpRow): TotpRecord => ({
  userId: r.user_id,
  secret: r.secret,
  createdAt: Number(r.created_at),
  enabledAt: num(r.enabled_at),
  lastStep: num(r.last_step),
});

export class SqliteTotpRepo implements TotpRepo {
  constructor(private readonly db: SqliteAsync) {}

  byUser(userId: string): Promise<TotpRecord | undefined> {
    return this.db.run((s) => {
      const r = s.get<TotpRow>(
        "SELECT user_id, secret, created_at, enabled_at, last_step FROM user_totp WHERE user_id = ?",
        userId,
      );
      return r && toTotp(r);
    });
  }

  enabledUsers(userIds: readonly string[]): Promise<Set<string>> {
    return this.db.run((s) =>
      new Set(
        s.all<{ user_id: string }>(
          `SELECT user_id FROM user_totp WHERE enabled_at IS NOT NULL
           AND user_id IN (SELECT value FROM json_each(?))`,
          JSON.stringify(userIds),
        ).map((r) => r.user_id),
      )
    );
  }

  begin(userId: string, secret: string, at: number): Promise<void> {
    return this.db.run((s) => {
      s.run("DELETE FROM user_recovery_codes WHERE user_id = ?", userId);
      s.run(
        `INSERT INTO user_totp (user_id, secret, created_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
           created_at = excluded.created_at, enabled_at = NULL, last_step = NULL`,
        userId,
        secret,
        at,
      );
    });
  }

  enable(userId: string, step: number, at: number, codeHashes: string[]): Promise<boolean> {
    return this.db.run((s) => {
      const changed = s.run(
        "UPDATE user_totp SET enabled_at = ?, last_step = ? WHERE user_id = ? AND enabled_at IS NULL",
        at,
        step,
        userId,
      ).changes;
      if (changed !== 1) return false;
      s.run("DELETE FROM user_recovery_codes WHERE user_id = ?", userId);
      for (const h of codeHashes) {
        s.run("INSERT INTO user_recovery_codes (user_id, code_hash) VALUES (?, ?)", userId, h);
      }
      return true;
    });
  }

  claimStep(userId: string, step: number): Promise<boolean> {
    return this.db.run((s) =>
      s.run(
        `UPDATE user_totp SET last_step = ? WHERE user_id = ? AND enabled_at IS NOT NULL
           AND (last_step IS NULL OR last_step < ?)`,
        step,
        userId,
        step,
      ).changes === 1
    );
  }

  useRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean> {
    return this.db.run((s) =>
      s.run(
        `UPDATE user_recovery_codes SET used_at = ?
         WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`,
        at,
        userId,
        codeHash,
      ).changes === 1
    );
  }

  recoveryCodesLeft(userId: string): Promise<number> {
    return this.db.run((s) =>
      s.get<{ n: number }>(
        "SELECT count(*) AS n FROM user_recovery_codes WHERE user_id = ? AND used_at IS NULL",
        userId,
      )?.n ?? 0
    );
  }

  replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean> {
    return this.db.run((s) => {
      const on = s.get<{ n: number }>(
        "SELECT count(*) AS n FROM user_totp WHERE user_id = ? AND enabled_at IS NOT NULL",
        userId,
      )?.n;
      if (!on) return false;
      s.run("DELETE FROM user_recovery_codes WHERE user_id = ?", userId);
      for (const h of codeHashes) {
        s.run("INSERT INTO user_recovery_codes (user_id, code_hash) VALUES (?, ?)", userId, h);
      }
      return true;
    });
  }

  remove(userId: string): Promise<void> {
    return this.db.run((s) => {
      s.run("DELETE FROM user_recovery_codes WHERE user_id = ?", userId);
      s.run("DELETE FROM user_totp WHERE user_id = ?", userId);
    });
  }
}
