/**
 * The `user_passkeys` and `passkey_challenges_used` tables: each user's
 * WebAuthn credentials and the challenges already answered (passkeys.ts).
 * Ported to both engines: the PostgreSQL twin is `pg_passkey_repo.ts`.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";

/** A registered passkey; times are Unix milliseconds. */
export interface PasskeyRecord {
  id: string;
  userId: string;
  name: string;
  /** The WebAuthn credential id, base64url. */
  credentialId: string;
  /** The COSE public key, base64url: only ever read to verify a signature. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

export interface PasskeyRepo {
  /** The user's passkeys, oldest first. */
  list(userId: string): Promise<PasskeyRecord[]>;
  count(userId: string): Promise<number>;
  /** How many passkeys each of `userIds` has, in one query; a user with none is absent. */
  countsByUser(userIds: readonly string[]): Promise<Map<string, number>>;
  byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined>;
  /** Adds a passkey; false (nothing written) when its credential id is already registered. */
  add(p: PasskeyRecord): Promise<boolean>;
  /** Renames one of the user's passkeys; false when the user has no passkey `id`. */
  rename(userId: string, id: string, name: string): Promise<boolean>;
  /** Removes one of the user's passkeys; false when the user has no passkey `id`. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Removes every passkey of the user; how many there were. */
  removeAll(userId: string): Promise<number>;
  /**
   * Records a use: the new counter and the time, only while the stored
   * counter is still `seen`, so two sign-ins racing with one signature
   * cannot both pass.
   */
  use(id: string, seen: number, counter: number, at: number): Promise<boolean>;
  /**
   * Takes challenge `hash` (valid until `expiresAt`) once: true the first
   * time, false when it was taken before. Forgets challenges expired at `now`.
   */
  takeChallenge(hash: string, expiresAt: number, now: number): Promise<boolean>;
}

/** A `user_passkeys` row as both engines return it. */
export interface PasskeyRow {
  id: string;
  user_id: string;
  name: string;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  created_at: number | string;
  last_used_at: number | string | null;
}

export const PASSKEY_COLUMNS =
  "id, user_id, name, credential_id, public_key, counter, transports, created_at, last_used_at";

export const toPasskey = (r: PasskeyRow): PasskeyRecord => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  credentialId: r.credential_id,
  publicKey: r.public_key,
  counter: Number(r.counter),
  transports: r.transports ? r.transports.split(",") : [],
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
});

export class SqlitePasskeyRepo implements PasskeyRepo {
  constructor(private readonly db: SqliteAsync) {}

  list(userId: string): Promise<PasskeyRecord[]> {
    return this.db.run((s) =>
      s.all<PasskeyRow>(
        `SELECT ${PASSKEY_COLUMNS} FROM user_passkeys WHERE user_id = ? ORDER BY created_at, id`,
        userId,
      ).map(toPasskey)
    );
  }

  count(userId: string): Promise<number> {
    return this.db.run((s) =>
      s.get<{ n: number }>("SELECT count(*) AS n FROM user_passkeys WHERE user_id = ?", userId)
        ?.n ?? 0
    );
  }

  countsByUser(userIds: readonly string[]): Promise<Map<string, number>> {
    return this.db.run((s) =>
      new Map(
        s.all<{ user_id: string; n: number }>(
          `SELECT user_id, count(*) AS n FROM user_passkeys
           WHERE user_id IN (SELECT value FROM json_each(?)) GROUP BY user_id`,
          JSON.stringify(userIds),
        ).map((r) => [r.user_id, Number(r.n)]),
      )
    );
  }

  byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined> {
    return this.db.run((s) => {
      const r = s.get<PasskeyRow>(
        `SELECT ${PASSKEY_COLUMNS} FROM user_passkeys WHERE credential_id = ?`,
        credentialId,
      );
      return r && toPasskey(r);
    });
  }

  add(p: PasskeyRecord): Promise<boolean> {
    return this.db.run((s) =>
      s.run(
        `INSERT INTO user_passkeys (${PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (credential_id) DO NOTHING`,
        p.id,
        p.userId,
        p.name,
        p.credentialId,
        p.publicKey,
        p.counter,
        p.transports.join(","),
        p.createdAt,
        p.lastUsedAt,
      ).changes === 1
    );
  }

  rename(userId: string, id: string, name: string): Promise<boolean> {
    return this.db.run((s) =>
      s.run("UPDATE user_passkeys SET name = ? WHERE id = ? AND user_id = ?", name, id, userId)
        .changes === 1
    );
  }

  remove(userId: string, id: string): Promise<boolean> {
    return this.db.run((s) =>
      s.run("DELETE FROM user_passkeys WHERE id = ? AND user_id = ?", id, userId).changes === 1
    );
  }

  removeAll(userId: string): Promise<number> {
    return this.db.run((s) =>
      Number(s.run("DELETE FROM user_passkeys WHERE user_id = ?", userId).changes)
    );
  }

  use(id: string, seen: number, counter: number, at: number): Promise<boolean> {
    return this.db.run((s) =>
      s.run(
        "UPDATE user_passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND counter = ?",
        counter,
        at,
        id,
        seen,
      ).changes === 1
    );
  }

  takeChallenge(hash: string, expiresAt: number, now: number): Promise<boolean> {
    return this.db.run((s) => {
      s.run("DELETE FROM passkey_challenges_used WHERE expires_at <= ?", now);
      return s.run(
        `INSERT INTO passkey_challenges_used (challenge_hash, expires_at) VALUES (?, ?)
         ON CONFLICT (challenge_hash) DO NOTHING`,
        hash,
        expiresAt,
      ).changes === 1;
    });
  }
}
