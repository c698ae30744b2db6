/**
 * Attestation sessions in the store. Acceptance of a heartbeat is one
 * compare-and-set on (session_id, last_hash, pending_step): of two heartbeats
 * racing with the same prev_hash, only the first UPDATE matches.
 */
import type { RowHint } from "../store/row_hint.ts";
import type { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";

/**
 * Width of the expiry buckets that index the sessions (migration 0006): a
 * session's `expires_bucket` is floor(expires_at / EXPIRY_BUCKET_MS), and
 * its index entry is rewritten only when that changes, not on every
 * heartbeat.
 */
export const EXPIRY_BUCKET_MS = 600_000;

export function expiryBucket(expiresAt: number): number {
  return Math.floor(expiresAt / EXPIRY_BUCKET_MS);
}

export interface AttestSession {
  session_id: string;
  public_key: string;
  salt: string;
  last_hash: string;
  pending_step: number;
  pending_order: string;
  gene_state: Uint8Array;
  chain_length: number;
  program: string;
  created_at: number;
  expires_at: number;
  /** The site whose key created it (migration 11); null or absent without one. Written once, by /init. */
  site_id?: string | null;
}

export type HeartbeatSnapshot =
  & Pick<
    AttestSession,
    | "session_id"
    | "public_key"
    | "salt"
    | "last_hash"
    | "pending_step"
    | "pending_order"
    | "gene_state"
    | "chain_length"
    | "expires_at"
  >
  & {
    /** Where the session's row is (opaque): its heartbeat's write finds it without the id index. */
    hint: RowHint;
  };

export interface Advance {
  session_id: string;
  /** The session's hint when it was read (the id decides). */
  hint: RowHint;
  /** The state the heartbeat was checked against. */
  expectHash: string;
  expectStep: number;
  /** Its expiry, to tell whether the expiry bucket changes. */
  expectExpiresAt: number;
  nextHash: string;
  nextSalt: string;
  nextOrder: string;
  nextGene: Uint8Array;
  expiresAt: number;
  now: number;
}

export interface AttestStats {
  sessions: number;
  expired_sessions: number;
  max_chain_length: number;
}

/** advance()'s usual statement (exported for the test of its query plan). */
export const ADVANCE_BY_ROWID =
  `UPDATE attest_sessions SET last_hash = ?, salt = ?, pending_step = pending_step + 1, pending_order = ?,
     gene_state = ?, chain_length = chain_length + 1, expires_at = ?, last_heartbeat_at = ?
   WHERE rowid = ? AND session_id = ? AND last_hash = ? AND pending_step = ? AND expires_bucket = ?`;

/** The attestation sessions table: what the service reads and writes. */
export interface AttestSessionRepo {
  /** Inserts a new session; returns its hint. */
  create(s: AttestSession): RowHint;
  /** The session, or undefined. */
  get(sessionId: string): AttestSession | undefined;
  /** What a heartbeat is checked against (a read per heartbeat the cache misses). */
  snapshot(sessionId: string): HeartbeatSnapshot | undefined;
  /** Applies an accepted heartbeat; false when the session moved on meanwhile (or is gone). */
  advance(a: Advance): boolean;
  /** Sessions expired at `now` but not yet purged. */
  expiredCount(now: number): number;
  /** The highest chain length stored (a scan). */
  maxChainLength(): number;
  /** The highest chain length among sessions that expired before `cutoff`. */
  maxChainLengthExpired(cutoff: number): number;
  /** Stored sessions (a scan). */
  count(): number;
  /** Deletes sessions that expired before `cutoff`; returns their ids. */
  purge(cutoff: number): string[];
}

/**
 * The same table, asynchronous: what the PostgreSQL heartbeat path uses
 * (`PgAttestSessionRepo`, `pg_session_repo.ts`); the SQLite twin
 * (`SqliteAttestSessionRepoAsync`) exists for the contract suite; the
 * SQLite listener keeps the synchronous repository above.
 */
export interface AttestSessionRepoAsync {
  create(s: AttestSession): Promise<RowHint>;
  get(sessionId: string): Promise<AttestSession | undefined>;
  snapshot(sessionId: string): Promise<HeartbeatSnapshot | undefined>;
  /** The compare-and-set: false when another writer (any instance) or a replay moved the row first. */
  advance(a: Advance): Promise<boolean>;
  expiredCount(now: number): Promise<number>;
  maxChainLength(): Promise<number>;
  maxChainLengthExpired(cutoff: number): Promise<number>;
  count(): Promise<number>;
  purge(cutoff: number): Promise<string[]>;
}

export class SqliteAttestSessionRepo implements AttestSessionRepo {
  constructor(private readonly store: Store) {}

  /** Inserts a new session; its hint is its rowid. */
  create(s: AttestSession): RowHint {
    return this.store.run(
      `INSERT INTO attest_sessions (session_id, public_key, salt, last_hash, pending_step, pending_order,
         gene_state, chain_length, program, created_at, expires_at, expires_bucket, site_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      s.session_id,
      s.public_key,
      s.salt,
      s.last_hash,
      s.pending_step,
      s.pending_order,
      s.gene_state,
      s.chain_length,
      s.program,
      s.created_at,
      s.expires_at,
      expiryBucket(s.expires_at),
      s.site_id ?? null,
    ).lastInsertRowid as RowHint;
  }

  /** The session, or undefined. */
  get(sessionId: string): AttestSession | undefined {
    return this.store.get<AttestSession>(
      "SELECT * FROM attest_sessions WHERE session_id = ?",
      sessionId,
    );
  }

  /** What a heartbeat is checked against: only the columns the checks read (a read per heartbeat). */
  snapshot(sessionId: string): HeartbeatSnapshot | undefined {
    return this.store.get<HeartbeatSnapshot>(
      `SELECT rowid AS hint, session_id, public_key, salt, last_hash, pending_step, pending_order, gene_state,
         chain_length, expires_at
       FROM attest_sessions WHERE session_id = ?`,
      sessionId,
    );
  }

  /**
   * Applies an accepted heartbeat; false when the session moved on meanwhile
   * (or is gone). Every column changes with `pending_step`, so a match on it
   * and `last_hash` means the row is still the one the heartbeat was checked
   * against. (No RETURNING: it made the statement measurably slower.)
   *
   * Most heartbeats leave the expiry bucket as it was, and then the statement
   * does not name `expires_bucket`: SQLite rewrites the index entry of every
   * column a statement sets, even to the same value. It guards on the bucket
   * instead, so a row whose bucket is off (edited by hand) takes the second
   * statement, which sets it.
   *
   * That first statement finds the row by its rowid, and still requires the
   * id: a lookup through the id's index reads more pages per heartbeat
   * (with two threads writing, each transaction starts with its connection's
   * page cache emptied by the other's commit, so every index page is read
   * again). A rowid that changed (a VACUUM renumbers them) matches nothing,
   * and the second statement finds the row by id.
   */
  advance(a: Advance): boolean {
    const bucket = expiryBucket(a.expiresAt);
    if (bucket === expiryBucket(a.expectExpiresAt)) {
      const { changes } = this.store.run(
        ADVANCE_BY_ROWID,
        a.nextHash,
        a.nextSalt,
        a.nextOrder,
        a.nextGene,
        a.expiresAt,
        a.now,
        a.hint,
        a.session_id,
        a.expectHash,
        a.expectStep,
        bucket,
      );
      if (changes === 1) return true;
    }
    const { changes } = this.store.run(
      `UPDATE attest_sessions SET last_hash = ?, salt = ?, pending_step = pending_step + 1, pending_order = ?,
         gene_state = ?, chain_length = chain_length + 1, expires_at = ?, expires_bucket = ?,
         last_heartbeat_at = ?
       WHERE session_id = ? AND last_hash = ? AND pending_step = ?`,
      a.nextHash,
      a.nextSalt,
      a.nextOrder,
      a.nextGene,
      a.expiresAt,
      bucket,
      a.now,
      a.session_id,
      a.expectHash,
      a.expectStep,
    );
    return changes === 1;
  }

  /**
   * Sessions expired at `now` but not yet purged: every session of an earlier
   * bucket (from the index alone), and those of the current bucket whose
   * exact expiry has passed.
   */
  expiredCount(now: number): number {
    return this.store.get<{ n: number }>(
      `SELECT (SELECT count(*) FROM attest_sessions WHERE expires_bucket < ?1)
            + (SELECT count(*) FROM attest_sessions WHERE expires_bucket = ?1 AND expires_at < ?2) AS n`,
      expiryBucket(now),
      now,
    )!.n;
  }

  /**
   * The highest chain length stored: a scan (no index, see migration 0005), so
   * the service keeps the figure itself and asks only at start and after a
   * purge removed the longest chain.
   */
  maxChainLength(): number {
    return this.store.get<{ m: number | null }>(
      "SELECT max(chain_length) AS m FROM attest_sessions",
    )!.m ?? 0;
  }

  /** The highest chain length among sessions that expired before `cutoff` (what a purge would remove). */
  maxChainLengthExpired(cutoff: number): number {
    return this.store.get<{ m: number | null }>(
      "SELECT max(chain_length) AS m FROM attest_sessions WHERE expires_bucket <= ? AND expires_at < ?",
      expiryBucket(cutoff),
      cutoff,
    )!.m ?? 0;
  }

  /** Stored sessions (a scan: the service counts them itself after start). */
  count(): number {
    return this.store.get<{ n: number }>("SELECT count(*) AS n FROM attest_sessions")!.n;
  }

  /** Deletes sessions that expired before `cutoff`; returns their ids. */
  purge(cutoff: number): string[] {
    return this.store.all<{ session_id: string }>(
      "DELETE FROM attest_sessions WHERE expires_bucket <= ? AND expires_at < ? RETURNING session_id",
      expiryBucket(cutoff),
      cutoff,
    ).map((r) => r.session_id);
  }
}

/** `AttestSessionRepoAsync` on SQLite: the synchronous statements above, through the store's queue. */
export class SqliteAttestSessionRepoAsync implements AttestSessionRepoAsync {
  constructor(private readonly db: SqliteAsync) {}

  #sync<T>(fn: (repo: SqliteAttestSessionRepo) => T): Promise<T> {
    return this.db.run((store) => fn(new SqliteAttestSessionRepo(store)));
  }

  create(s: AttestSession): Promise<RowHint> {
    return this.#sync((r) => r.create(s));
  }

  get(sessionId: string): Promise<AttestSession | undefined> {
    return this.#sync((r) => r.get(sessionId));
  }

  snapshot(sessionId: string): Promise<HeartbeatSnapshot | undefined> {
    return this.#sync((r) => r.snapshot(sessionId));
  }

  advance(a: Advance): Promise<boolean> {
    return this.#sync((r) => r.advance(a));
  }

  expiredCount(now: number): Promise<number> {
    return this.#sync((r) => r.expiredCount(now));
  }

  maxChainLength(): Promise<number> {
    return this.#sync((r) => r.maxChainLength());
  }

  maxChainLengthExpired(cutoff: number): Promise<number> {
    return this.#sync((r) => r.maxChainLengthExpired(cutoff));
  }

  count(): Promise<number> {
    return this.#sync((r) => r.count());
  }

  purge(cutoff: number): Promise<string[]> {
    return this.#sync((r) => r.purge(cutoff));
  }
}
