/**
 * The browser attestation service (specs/attestation.md): session creation
 * and heartbeat verification in the spec's check order, first failure
 * rejects. A rejection changes nothing; an acceptance is one compare-and-set
 * in the store. Callers only learn accepted or not; the reason goes to the
 * counters behind `/metrics`.
 */
import { clearImmediate, setImmediate } from "node:timers";
import type { Clock } from "../clock.ts";
import { AttestInitError, RateLimitError, UnavailableError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import type { Store } from "../store/store.ts";
import type { EntropyEvent, Fingerprint, StackState } from "./canonical.ts";
import type { Core } from "./core.ts";
import { Ed25519Verifier, isValidPublicKey } from "./ed25519.ts";
import { AttestCounters, type CounterTable, type RejectReason, renderMetrics } from "./metrics.ts";
import { randomMutationOrder } from "./mutation_order.ts";
import { randomProgram } from "./program.ts";
import { randomHex } from "./random_pool.ts";
import { type LimiterTable, SlidingWindowLimiter } from "./rate_limiter.ts";
import {
  createSessionCacheTable,
  type SessionCacheTable,
  SharedSessionCache,
} from "./session_cache.ts";
import { SharedMutex } from "./shared_mutex.ts";
import { verifyHeartbeat } from "./verify_heartbeat.ts";
import {
  type Advance,
  AttestSessionStore,
  type AttestStats,
  type HeartbeatSnapshot,
} from "./session_store.ts";

/** Sessions expire after 30 minutes without an accepted heartbeat. */
export const SESSION_TTL_MS = 30 * 60_000;

export interface AttestOptions {
  heartbeatMinMs: number;
  heartbeatMaxMs: number;
  geneSize: number;
  /** Expired sessions are deleted this long after expiry. */
  purgeGraceMs: number;
  /** Sessions one client address may create per minute; 0 for no limit. */
  initPerMinute: number;
  /** Stored sessions at most. */
  maxSessions: number;
  /** MiB of shared memory for recent sessions' heartbeat state (lib/attest/session_cache.ts); 0 for none. */
  cacheMb: number;
}

export interface InitResponse {
  session_id: string;
  salt: string;
  opcodes_b64: string;
  initial_hash: string;
  expires_at: number;
  heartbeat_min_interval_ms: number;
  heartbeat_max_interval_ms: number;
  gene_size: number;
  mutation_step: number;
  mutation_order_b64: string;
}

/** A decoded heartbeat request (snake_case as on the wire). */
export interface HeartbeatRequest {
  session_id: string;
  prev_hash: string;
  timestamp: number;
  entropy_data: { events: EntropyEvent[] };
  stack_state: StackState;
  fingerprint: Fingerprint;
  mutation_step: number;
  gene_commitment: string;
  signature: string;
}

export interface Accepted {
  status: "ok";
  next_salt: string;
  next_mutation_step: number;
  next_mutation_order_b64: string;
}

export type HeartbeatOutcome =
  | { accepted: true; response: Accepted }
  | { accepted: false; reason: RejectReason };

/** Most accepted heartbeats written in one transaction. */
const MAX_BATCH = 512;
/**
 * How long a flush keeps serving requests while another thread writes, before
 * it blocks on the write lock. A group commit takes well under a millisecond.
 */
const MAX_FLUSH_SPIN_MS = 5;

interface PendingWrite {
  advance: Advance;
  /** The session's state once the write commits, for the shared cache. */
  next: HeartbeatSnapshot;
  done: (ok: boolean) => void;
}

/**
 * The state every thread serving the attestation listener shares: rate
 * limits, counters and the stored-session count (for the cap). Made once per
 * process by createAttestShared() and passed to each thread.
 */
export interface AttestShared {
  heartbeatLimits: LimiterTable;
  initLimits: LimiterTable | null;
  counters: CounterTable;
  /** Int32Array[1]: stored sessions. */
  sessionCount: SharedArrayBuffer;
  /**
   * Int32Array[1]: the highest stored chain length. Written only under
   * `writeLock` (raised by group commits, recomputed by the purge), so that
   * /stats needs no scan of the sessions table (migration 0005).
   */
  maxChainLength: SharedArrayBuffer;
  /**
   * Int32Array[1]: a SharedMutex that the threads take around their writes to
   * the sessions table. SQLite lets one writer in at a time and makes the
   * others sleep in steps of 1 ms and more; a thread that finds this lock taken
   * instead goes on serving requests until it is released.
   */
  writeLock: SharedArrayBuffer;
  /** Recent sessions' heartbeat state (lib/attest/session_cache.ts), written under `writeLock`. */
  sessionCache: SessionCacheTable | null;
}

/**
 * Shared state for `threads` services (one counter row each) over a store
 * holding `sessions` sessions whose longest chain is `maxChainLength`.
 */
export function createAttestShared(
  options: Pick<AttestOptions, "initPerMinute" | "geneSize" | "cacheMb">,
  threads: number,
  stored: { sessions: number; maxChainLength: number },
): AttestShared {
  const sessionCount = new SharedArrayBuffer(4);
  new Int32Array(sessionCount)[0] = stored.sessions;
  const maxChainLength = new SharedArrayBuffer(4);
  new Int32Array(maxChainLength)[0] = stored.maxChainLength;
  return {
    // The spec's limit: 5 heartbeats per 10 s per session_id.
    heartbeatLimits: new SlidingWindowLimiter(5, 10_000).table,
    initLimits: options.initPerMinute > 0
      ? new SlidingWindowLimiter(options.initPerMinute, 60_000, 4096).table
      : null,
    counters: new AttestCounters(threads).table,
    sessionCount,
    maxChainLength,
    writeLock: new SharedArrayBuffer(4),
    sessionCache: createSessionCacheTable(options.cacheMb, options.geneSize),
  };
}

export class AttestService {
  readonly counters: AttestCounters;
  readonly limiter: SlidingWindowLimiter;
  readonly shared: AttestShared;
  readonly #sessions: AttestSessionStore;
  readonly #verifier = new Ed25519Verifier();
  #queue: PendingWrite[] = [];
  /** Sessions per client address per minute, against a flood of `/init` on the public listener. */
  readonly #initLimiter: SlidingWindowLimiter | null;
  /** Stored sessions, kept in shared memory so `/init` checks the cap without counting rows. */
  readonly #sessionCount: Int32Array;
  readonly #maxChainLength: Int32Array;
  #flushTimer: ReturnType<typeof setImmediate> | null = null;
  /** When the pending flush first found the write lock taken (performance.now()), else 0. */
  #flushWaitSince = 0;
  readonly #writeLock: SharedMutex;
  readonly #cache: SharedSessionCache | null;
  /** Where a cached session's gene state is copied for the checks (they run synchronously). */
  readonly #gene: Uint8Array;

  /**
   * `shared` and `row` when several threads serve the listener (each with its
   * own store connection and service); without them the service stands alone.
   */
  constructor(
    private readonly store: Store,
    private readonly core: Core,
    private readonly clock: Clock,
    private readonly options: AttestOptions,
    private readonly log: Logger,
    shared?: AttestShared,
    row = 0,
  ) {
    this.#sessions = new AttestSessionStore(store);
    this.shared = shared ?? createAttestShared(options, 1, {
      sessions: this.#sessions.count(),
      maxChainLength: this.#sessions.maxChainLength(),
    });
    this.counters = new AttestCounters(this.shared.counters, row);
    this.limiter = new SlidingWindowLimiter(this.shared.heartbeatLimits);
    this.#initLimiter = this.shared.initLimits && new SlidingWindowLimiter(this.shared.initLimits);
    this.#sessionCount = new Int32Array(this.shared.sessionCount);
    this.#maxChainLength = new Int32Array(this.shared.maxChainLength);
    this.#writeLock = new SharedMutex(this.shared.writeLock);
    this.#cache = this.shared.sessionCache && new SharedSessionCache(this.shared.sessionCache);
    this.#gene = new Uint8Array(this.#cache?.geneSize ?? 0);
  }

  /**
   * Queues an accepted heartbeat's compare-and-set; resolves once the
   * transaction holding it has committed. The flush runs with setImmediate:
   * after the I/O of the current loop turn (so the turn's heartbeats share a
   * transaction) but without a timer's delay (setTimeout(0) is 2 ms here). Writing the heartbeats of one
   * event-loop turn in one transaction writes each WAL page once per batch
   * instead of once per heartbeat, and the answer still waits for the commit.
   */
  #persist(advance: Advance, next: HeartbeatSnapshot): Promise<boolean> {
    return new Promise((done) => {
      this.#queue.push({ advance, next, done });
      if (this.#queue.length >= MAX_BATCH) this.flush();
      else this.#flushTimer ??= setImmediate(() => this.#flushSoon());
    });
  }

  /**
   * Writes the queue now when no other thread is writing. Otherwise tries again
   * on the next event-loop turns, serving requests meanwhile (they join the
   * same transaction), and blocks on the lock only after MAX_FLUSH_SPIN_MS.
   */
  #flushSoon(): void {
    this.#flushTimer = null;
    if (this.#writeLock.tryLock()) {
      this.#flushWaitSince = 0;
      this.#writeQueue();
      return;
    }
    const now = performance.now();
    this.#flushWaitSince ||= now;
    if (now - this.#flushWaitSince < MAX_FLUSH_SPIN_MS) {
      // Another thread is writing: serve the requests that arrive meanwhile, then try again.
      this.#flushTimer = setImmediate(() => this.#flushSoon());
    } else {
      // A long write (e.g. a purge of many sessions): stop spinning and wait for it.
      this.#flushWaitSince = 0;
      this.flush();
    }
  }

  /** Writes what is queued; call before closing the store. */
  close(): void {
    this.flush();
  }

  /** Writes queued acceptances now, after another thread's write if one is running (also on shutdown). */
  flush(): void {
    if (this.#flushTimer !== null) clearImmediate(this.#flushTimer);
    this.#flushTimer = null;
    this.#writeLock.lock();
    this.#writeQueue();
  }

  /** Writes the queue in one transaction and releases the write lock, which the caller holds. */
  #writeQueue(): void {
    const batch = this.#queue;
    this.#queue = [];
    let results: boolean[] = [];
    try {
      // Each UPDATE keeps its own guard: of two racing heartbeats in one batch only the first matches.
      if (batch.length > 0) {
        results = this.store.tx(() => batch.map((w) => this.#sessions.advance(w.advance)));
      }
    } catch (err) {
      this.log.error("persisting accepted heartbeats failed", { err, count: batch.length });
      results = batch.map(() => false);
    }
    try {
      // Still under the write lock, as every write of these must be. Apart from the
      // commit's outcome: a fault here must not turn committed heartbeats into rejections.
      let longest = 0;
      results.forEach((ok, i) => {
        if (!ok) return;
        const next = batch[i].next;
        if (next.chain_length > longest) longest = next.chain_length;
        this.#cache?.put(next);
      });
      if (longest > Atomics.load(this.#maxChainLength, 0)) {
        Atomics.store(this.#maxChainLength, 0, longest);
      }
    } catch (err) {
      this.log.error("updating the shared session state failed", { err });
    } finally {
      this.#writeLock.unlock();
    }
    batch.forEach((w, i) => w.done(results[i]));
  }

  /**
   * Creates a session for a client's Ed25519 public key. Throws RateLimitError
   * (429) past the per-address limit, UnavailableError (503) at the session
   * cap, and AttestInitError (the spec's 500) on any other failure.
   */
  init(publicKeyHex: unknown, clientAddress = "unknown"): InitResponse {
    if (this.#initLimiter && !this.#initLimiter.allow(clientAddress, this.clock.now())) {
      throw new RateLimitError("Too many sessions created from this address; try again later", 60);
    }
    if (Atomics.load(this.#sessionCount, 0) >= this.options.maxSessions) {
      throw new UnavailableError(
        "The attestation service is at its session capacity; try again later",
      );
    }
    try {
      if (typeof publicKeyHex !== "string" || !isValidPublicKey(publicKeyHex)) {
        throw new AttestInitError("Public key is not 64 hex characters of a valid Ed25519 point");
      }
      const publicKey = publicKeyHex.toLowerCase();
      const geneState = this.core.initialGeneState(this.options.geneSize);
      const sessionId = randomHex(32);
      const salt = randomHex(16);
      const initialHash = this.core.initialHash(sessionId, publicKey, salt);
      if (!initialHash) throw new AttestInitError("Cannot compute the initial hash");
      const now = this.clock.now();
      const session = {
        session_id: sessionId,
        public_key: publicKey,
        salt,
        last_hash: initialHash,
        pending_step: 1,
        pending_order: randomMutationOrder(),
        gene_state: geneState,
        chain_length: 0,
        program: randomProgram(),
        created_at: now,
        expires_at: now + SESSION_TTL_MS,
      };
      this.#writeLock.lock();
      try {
        const rowid = this.#sessions.create(session);
        this.#cache?.put({ ...session, rowid });
      } finally {
        this.#writeLock.unlock();
      }
      Atomics.add(this.#sessionCount, 0, 1);
      // Its first heartbeat is likely to come back over the same connection, to this thread.
      this.#verifier.prime(publicKey);
      this.counters.add("sessionsCreated");
      return {
        session_id: sessionId,
        salt,
        opcodes_b64: session.program,
        initial_hash: initialHash,
        expires_at: session.expires_at,
        heartbeat_min_interval_ms: this.options.heartbeatMinMs,
        heartbeat_max_interval_ms: this.options.heartbeatMaxMs,
        gene_size: geneState.length,
        mutation_step: 1,
        mutation_order_b64: session.pending_order,
      };
    } catch (err) {
      this.counters.add("initFailures");
      this.log.warn("attestation init failed", { reason: (err as Error).message });
      throw err instanceof AttestInitError ? err : new AttestInitError("Session creation failed");
    }
  }

  /**
   * Verifies a heartbeat in the spec's order; advances the session only when
   * every check passes.
   */
  async heartbeat(hb: HeartbeatRequest): Promise<HeartbeatOutcome> {
    const result = await this.#check(hb);
    if (typeof result === "string") {
      this.counters.reject(result);
      return { accepted: false, reason: result };
    }
    this.counters.add("accepted");
    return { accepted: true, response: result };
  }

  async #check(hb: HeartbeatRequest): Promise<RejectReason | Accepted> {
    const now = this.clock.now();
    // 1. Rate limit, before the lookup, so unknown ids cost no database read.
    if (!this.limiter.allow(hb.session_id, now)) return "rate_limit";
    // 2. Lookup: the shared copy when it holds the state the heartbeat claims to follow, else the table.
    const cached = this.#cache?.get(hb.session_id, this.#gene);
    const s = cached && cached.pending_step === hb.mutation_step &&
        cached.last_hash === hb.prev_hash.toLowerCase()
      ? cached
      : this.#sessions.snapshot(hb.session_id);
    if (!s) return "unknown_session";
    // 3. Expiry.
    if (now > s.expires_at) return "expired";
    // 4–12. Signature, chain, mutation, commitment, drift, mouse, fingerprint; then H(n).
    const verdict = verifyHeartbeat(hb, s, now, this.core, this.#verifier);
    if (!verdict.ok) return verdict.reason;
    // 13–14. New salt and order; persist with a compare-and-set on the state checked above.
    const nextSalt = randomHex(16);
    const nextOrder = randomMutationOrder();
    const expiresAt = now + SESSION_TTL_MS;
    const persisted = await this.#persist({
      session_id: s.session_id,
      rowid: s.rowid,
      expectHash: s.last_hash,
      expectStep: s.pending_step,
      expectExpiresAt: s.expires_at,
      nextHash: verdict.nextHash,
      nextSalt,
      nextOrder,
      nextGene: verdict.nextGene,
      expiresAt,
      now,
    }, {
      session_id: s.session_id,
      rowid: s.rowid,
      public_key: s.public_key,
      salt: nextSalt,
      last_hash: verdict.nextHash,
      pending_step: s.pending_step + 1,
      pending_order: nextOrder,
      gene_state: verdict.nextGene,
      chain_length: s.chain_length + 1,
      expires_at: expiresAt,
    });
    if (!persisted) return "conflict";
    return {
      status: "ok",
      next_salt: nextSalt,
      next_mutation_step: s.pending_step + 1,
      next_mutation_order_b64: nextOrder,
    };
  }

  /**
   * Drops the shared copy of a session's heartbeat state, so that its next
   * heartbeat reads the table: for a row changed outside this service (a
   * repair by hand, a test).
   */
  forgetCached(sessionId: string): void {
    this.#writeLock.lock();
    try {
      this.#cache?.forget(sessionId);
    } finally {
      this.#writeLock.unlock();
    }
  }

  /** `/stats`: stored sessions, expired ones not yet purged, highest chain length. */
  stats(): AttestStats {
    return {
      sessions: Atomics.load(this.#sessionCount, 0),
      expired_sessions: this.#sessions.expiredCount(this.clock.now()),
      max_chain_length: Atomics.load(this.#maxChainLength, 0),
    };
  }

  /** `/metrics` in Prometheus text format. */
  metrics(): string {
    return renderMetrics(this.stats(), this.counters);
  }

  /** Deletes sessions expired for longer than the grace period; returns how many. */
  purgeExpired(): number {
    const cutoff = this.clock.now() - this.options.purgeGraceMs;
    this.#writeLock.lock();
    let purged: number;
    try {
      const result = this.store.tx(() => {
        const longestPurged = this.#sessions.maxChainLengthExpired(cutoff);
        const ids = this.#sessions.purge(cutoff);
        // A scan, but only when the longest chain may have gone with the purged sessions.
        const rescan = ids.length > 0 && longestPurged >= Atomics.load(this.#maxChainLength, 0);
        return { ids, longest: rescan ? this.#sessions.maxChainLength() : null };
      });
      purged = result.ids.length;
      if (result.longest !== null) Atomics.store(this.#maxChainLength, 0, result.longest);
      for (const id of result.ids) this.#cache?.forget(id);
    } finally {
      this.#writeLock.unlock();
    }
    // Never below zero, whatever another process did to the table meanwhile.
    if (Atomics.sub(this.#sessionCount, 0, purged) < purged) {
      Atomics.store(this.#sessionCount, 0, 0);
    }
    this.counters.add("purged", purged);
    return purged;
  }
}
