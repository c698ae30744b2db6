/**
 * Group commit of accepted heartbeats: the compare-and-sets of one
 * event-loop turn go into one transaction, so that each WAL page is written
 * once per batch instead of once per heartbeat, and every answer still waits
 * for its commit. Threads serving the listener take the shared write lock
 * around their transactions; one that finds it taken keeps serving requests
 * (which join its batch) instead of sleeping in SQLite's busy handler.
 */
import { clearImmediate, setImmediate } from "node:timers";
import type { Logger } from "../log/log.ts";
import type { Transactor } from "../store/transactor.ts";
import type { SharedSessionCache } from "./session_cache.ts";
import type { Advance, AttestSessionRepo, HeartbeatSnapshot } from "./session_repo.ts";
import type { SharedMutex } from "./shared_mutex.ts";
import type { SignalObservation, SignalRepo } from "./signals/signal_repo.ts";

/** Most accepted heartbeats written in one transaction. */
const MAX_BATCH = 512;
/**
 * How long a flush keeps serving requests while another thread writes, before
 * it blocks on the write lock: a group commit is short, a purge may not be.
 */
const MAX_FLUSH_SPIN_MS = 5;

interface PendingWrite {
  advance: Advance;
  /** The session's state once the write commits, for the shared cache. */
  next: HeartbeatSnapshot;
  /** The heartbeat's automation signals (a site's session only), written when the compare-and-set wins. */
  signals: SignalObservation | null;
  done: (ok: boolean) => void;
}

/** What a group commit writes to besides the table. */
export interface GroupCommitTargets {
  sessions: AttestSessionRepo;
  tx: Transactor;
  writeLock: SharedMutex;
  cache: SharedSessionCache | null;
  /** Int32Array[1] over AttestShared.maxChainLength. */
  maxChainLength: Int32Array;
  log: Logger;
  /** Where signals go; null keeps none. */
  signals?: SignalRepo | null;
}

export class GroupCommit {
  #queue: PendingWrite[] = [];
  #timer: ReturnType<typeof setImmediate> | null = null;
  /** When the pending flush first found the write lock taken (performance.now()), else 0. */
  #waitSince = 0;

  constructor(private readonly t: GroupCommitTargets) {}

  /**
   * Queues an accepted heartbeat's compare-and-set; resolves once the
   * transaction holding it has committed (false when it lost the race). The
   * flush runs with setImmediate: after the I/O of the current loop turn, so
   * the turn's heartbeats share a transaction, but without a timer's delay.
   */
  persist(
    advance: Advance,
    next: HeartbeatSnapshot,
    signals: SignalObservation | null = null,
  ): Promise<boolean> {
    return new Promise((done) => {
      this.#queue.push({ advance, next, signals, done });
      if (this.#queue.length >= MAX_BATCH) this.flush();
      else this.#timer ??= setImmediate(() => this.#flushSoon());
    });
  }

  /** Writes queued acceptances now, after another thread's write if one is running. */
  flush(): void {
    if (this.#timer !== null) clearImmediate(this.#timer);
    this.#timer = null;
    this.t.writeLock.lock();
    this.#writeQueue();
  }

  /**
   * Writes the queue now when no other thread is writing. Otherwise tries again
   * on the next event-loop turns, serving requests meanwhile (they join the
   * same transaction), and blocks on the lock only after MAX_FLUSH_SPIN_MS.
   */
  #flushSoon(): void {
    this.#timer = null;
    if (this.t.writeLock.tryLock()) {
      this.#waitSince = 0;
      this.#writeQueue();
      return;
    }
    const now = performance.now();
    this.#waitSince ||= now;
    if (now - this.#waitSince < MAX_FLUSH_SPIN_MS) {
      this.#timer = setImmediate(() => this.#flushSoon());
    } else {
      this.#waitSince = 0;
      this.flush();
    }
  }

  /** Writes the queue in one transaction and releases the write lock, which the caller holds. */
  #writeQueue(): void {
    const batch = this.#queue;
    this.#queue = [];
    let results: boolean[] = [];
    try {
      // Each compare-and-set keeps its own guard: of two racing heartbeats in one batch only the first matches.
      if (batch.length > 0) {
        results = this.t.tx.tx(() => batch.map((w) => this.#advance(w)));
      }
    } catch (err) {
      this.t.log.error("persisting accepted heartbeats failed", { err, count: batch.length });
      results = batch.map(() => false);
    }
    try {
      // Still under the write lock, as every write of these must be. Apart from the
      // commit's outcome: a fault here must not turn committed heartbeats into rejections.
      this.#publish(batch, results);
    } catch (err) {
      this.t.log.error("updating the shared session state failed", { err });
    } finally {
      this.t.writeLock.unlock();
    }
    batch.forEach((w, i) => w.done(results[i]));
  }

  /**
   * One compare-and-set, then its signals in the same transaction: no second
   * commit, and no signals for a heartbeat that lost the race. A failed signal
   * write is logged and never turns an acceptance into a rejection.
   */
  #advance(w: PendingWrite): boolean {
    const ok = this.t.sessions.advance(w.advance);
    if (ok && w.signals && this.t.signals) {
      try {
        this.t.signals.record(w.signals);
      } catch (err) {
        this.t.log.error("recording attestation signals failed", { err });
      }
    }
    return ok;
  }

  /** Puts the committed states into the shared cache and raises the longest chain. */
  #publish(batch: PendingWrite[], results: boolean[]): void {
    let longest = 0;
    results.forEach((ok, i) => {
      if (!ok) return;
      const next = batch[i].next;
      if (next.chain_length > longest) longest = next.chain_length;
      this.t.cache?.put(next);
    });
    if (longest > Atomics.load(this.t.maxChainLength, 0)) {
      Atomics.store(this.t.maxChainLength, 0, longest);
    }
  }
}
