/**
 * Attestation tokens in the store (migration 12), and the one read of a
 * session that `POST /token` needs. `AttestTokenRepo` (synchronous) is what
 * the attestation threads use on SQLite; `AttestTokenRepoAsync` is the same
 * on either engine (`SqliteAttestTokenRepoAsync` here, `PgAttestTokenRepo` in
 * `pg_token_repo.ts`). Redemption is one conditional UPDATE on both.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { Store } from "../../store/store.ts";

export interface TokenRow {
  token_id: string;
  site_id: string;
  session_id: string;
  issued_at: number;
  expires_at: number;
  chain_length: number;
  session_age_ms: number;
  used_at: number | null;
  idempotency_key: string | null;
  /** The JSON of the answer the winning siteverify got. */
  result: string | null;
}

/** What `POST /token` checks of the session a token names. */
export interface TokenSession {
  public_key: string;
  chain_length: number;
  created_at: number;
  expires_at: number;
  site_id: string | null;
}

export interface AttestTokenRepo {
  session(sessionId: string): TokenSession | undefined;
  byId(tokenId: string): TokenRow | undefined;
  /** False when the token was registered already. */
  insert(row: NewAttestToken): boolean;
  /** Marks a token used; false when another siteverify marked it first. */
  markUsed(tokenId: string, now: number, idempotencyKey: string | null, result: string): boolean;
  /** Deletes tokens that expired before `cutoff`; returns how many. */
  purge(cutoff: number): number;
}

/** The same table, asynchronous. */
export interface AttestTokenRepoAsync {
  session(sessionId: string): Promise<TokenSession | undefined>;
  byId(tokenId: string): Promise<TokenRow | undefined>;
  /** False when the token was registered already. */
  insert(row: NewAttestToken): Promise<boolean>;
  /** Marks a token used; false when another siteverify (on any instance) marked it first. */
  markUsed(
    tokenId: string,
    now: number,
    idempotencyKey: string | null,
    result: string,
  ): Promise<boolean>;
  /** Deletes tokens that expired before `cutoff`; returns how many. */
  purge(cutoff: number): Promise<number>;
}

export type NewAttestToken = Omit<TokenRow, "used_at" | "idempotency_key" | "result">;

const COLUMNS =
  "token_id, site_id, session_id, issued_at, expires_at, chain_length, session_age_ms, used_at, idempotency_key, result";

export class SqliteAttestTokenRepo implements AttestTokenRepo {
  constructor(private readonly store: Store) {}

  session(sessionId: string): TokenSession | undefined {
    return this.store.get<TokenSession>(
      `SELECT public_key, chain_length, created_at, expires_at, site_id
       FROM attest_sessions WHERE session_id = ?`,
      sessionId,
    );
  }

  byId(tokenId: string): TokenRow | undefined {
    return this.store.get<TokenRow>(
      `SELECT ${COLUMNS} FROM attest_tokens WHERE token_id = ?`,
      tokenId,
    );
  }

  insert(r: NewAttestToken): boolean {
    return this.store.run(
      `INSERT INTO attest_tokens
         (token_id, site_id, session_id, issued_at, expires_at, chain_length, session_age_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (token_id) DO NOTHING`,
      r.token_id,
      r.site_id,
      r.session_id,
      r.issued_at,
      r.expires_at,
      r.chain_length,
      r.session_age_ms,
    ).changes === 1;
  }

  markUsed(tokenId: string, now: number, idempotencyKey: string | null, result: string): boolean {
    return this.store.run(
      `UPDATE attest_tokens SET used_at = ?, idempotency_key = ?, result = ?
       WHERE token_id = ? AND used_at IS NULL`,
      now,
      idempotencyKey,
      result,
      tokenId,
    ).changes === 1;
  }

  purge(cutoff: number): number {
    return this.store.run("DELETE FROM attest_tokens WHERE expires_at < ?", cutoff).changes;
  }
}

/** `AttestTokenRepoAsync` on SQLite: the synchronous statements above, through the store's queue. */
export class SqliteAttestTokenRepoAsync implements AttestTokenRepoAsync {
  constructor(private readonly db: SqliteAsync) {}

  #sync<T>(fn: (repo: SqliteAttestTokenRepo) => T): Promise<T> {
    return this.db.run((store) => fn(new SqliteAttestTokenRepo(store)));
  }

  session(sessionId: string): Promise<TokenSession | undefined> {
    return this.#sync((r) => r.session(sessionId));
  }

  byId(tokenId: string): Promise<TokenRow | undefined> {
    return this.#sync((r) => r.byId(tokenId));
  }

  insert(row: NewAttestToken): Promise<boolean> {
    return this.#sync((r) => r.insert(row));
  }

  markUsed(
    tokenId: string,
    now: number,
    idempotencyKey: string | null,
    result: string,
  ): Promise<boolean> {
    return this.#sync((r) => r.markUsed(tokenId, now, idempotencyKey, result));
  }

  purge(cutoff: number): Promise<number> {
    return this.#sync((r) => r.purge(cutoff));
  }
}
