/**
 * Attestation sessions on PostgreSQL: the twin of
 * `SqliteAttestSessionRepoAsync`, and the heart of running several
 * instances. Accepting a heartbeat is ONE conditional UPDATE in autocommit
 * mode, a compare-and-set on (session_id, last_hash, pending_step): under
 * READ COMMITTED a second writer of the same row waits for the first to
 * commit, then re-checks its WHERE against the new row, which no longer
 * matches. Zero rows means another instance or a replay won.
 */
import { NO_HINT, type RowHint } from "../store/row_hint.ts";
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type Advance,
  type AttestSession,
  type AttestSessionRepoAsync,
  expiryBucket,
  type HeartbeatSnapshot,
} from "./session_repo.ts";

/** BYTEA comes back as a Buffer; the checks compare plain bytes. */
const bytes = (b: Uint8Array): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

export class PgAttestSessionRepo implements AttestSessionRepoAsync {
  constructor(private readonly db: PgAsync) {}

  /** Inserts a new session; PostgreSQL has no row handle, so the hint is none. */
  async create(s: AttestSession): Promise<RowHint> {
    await this.db.sql`
      INSERT INTO attest_sessions (session_id, public_key, salt, last_hash, pending_step,
        pending_order, gene_state, chain_length, program, created_at, expires_at, expires_bucket,
        site_id)
      VALUES (${s.session_id}, ${s.public_key}, ${s.salt}, ${s.last_hash}, ${s.pending_step},
        ${s.pending_order}, ${s.gene_state}, ${s.chain_length}, ${s.program}, ${s.created_at},
        ${s.expires_at}, ${expiryBucket(s.expires_at)}, ${s.site_id ?? null})`;
    return NO_HINT;
  }

  async get(sessionId: string): Promise<AttestSession | undefined> {
    const [r] = await this.db.sql<(AttestSession & { last_heartbeat_at: number | null })[]>`
      SELECT * FROM attest_sessions WHERE session_id = ${sessionId}`;
    return r && { ...r, gene_state: bytes(r.gene_state) };
  }

  async snapshot(sessionId: string): Promise<HeartbeatSnapshot | undefined> {
    const [r] = await this.db.sql<HeartbeatSnapshot[]>`
      SELECT 0 AS hint, session_id, public_key, salt, last_hash, pending_step, pending_order,
        gene_state, chain_length, expires_at
      FROM attest_sessions WHERE session_id = ${sessionId}`;
    return r && { ...r, gene_state: bytes(r.gene_state) };
  }

  /** The compare-and-set; the hint is ignored (the id decides). */
  async advance(a: Advance): Promise<boolean> {
    const { count } = await this.db.sql`
      UPDATE attest_sessions SET last_hash = ${a.nextHash}, salt = ${a.nextSalt},
        pending_step = pending_step + 1, pending_order = ${a.nextOrder}, gene_state = ${a.nextGene},
        chain_length = chain_length + 1, expires_at = ${a.expiresAt},
        expires_bucket = ${expiryBucket(a.expiresAt)}, last_heartbeat_at = ${a.now}
      WHERE session_id = ${a.session_id} AND last_hash = ${a.expectHash}
        AND pending_step = ${a.expectStep}`;
    return count === 1;
  }

  async expiredCount(now: number): Promise<number> {
    const [r] = await this.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM attest_sessions
      WHERE expires_bucket < ${expiryBucket(now)}
         OR (expires_bucket = ${expiryBucket(now)} AND expires_at < ${now})`;
    return r.n;
  }

  async maxChainLength(): Promise<number> {
    const [r] = await this.db.sql<{ m: number | null }[]>`
      SELECT max(chain_length) AS m FROM attest_sessions`;
    return r.m ?? 0;
  }

  async maxChainLengthExpired(cutoff: number): Promise<number> {
    const [r] = await this.db.sql<{ m: number | null }[]>`
      SELECT max(chain_length) AS m FROM attest_sessions
      WHERE expires_bucket <= ${expiryBucket(cutoff)} AND expires_at < ${cutoff}`;
    return r.m ?? 0;
  }

  async count(): Promise<number> {
    const [r] = await this.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM attest_sessions`;
    return r.n;
  }

  async purge(cutoff: number): Promise<string[]> {
    const rows = await this.db.sql<{ session_id: string }[]>`
      DELETE FROM attest_sessions
      WHERE expires_bucket <= ${expiryBucket(cutoff)} AND expires_at < ${cutoff}
      RETURNING session_id`;
    return rows.map((r) => r.session_id);
  }
}
