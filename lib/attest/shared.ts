/**
 * The state every thread serving the attestation listener shares through
 * shared memory: rate limits, counters, the stored-session count (for the
 * cap), the longest chain, the write lock and the session cache. Made once
 * per process and passed to each thread.
 */
import { AttestCounters, type CounterTable } from "./metrics.ts";
import { type LimiterTable, SlidingWindowLimiter } from "./rate_limiter.ts";
import { createSessionCacheTable, type SessionCacheTable } from "./session_cache.ts";
import { createSiteShared, type SiteShared } from "./sites/site_directory.ts";
import { createTokenCounterTable, type TokenCounterTable } from "./tokens/token_counters.ts";

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
  /** The sites' version number and per-site counters (lib/attest/sites/site_directory.ts). */
  sites: SiteShared;
  /** Per-site token and siteverify counters (lib/attest/tokens/token_counters.ts). */
  tokens: TokenCounterTable;
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
    sites: createSiteShared(threads),
    tokens: createTokenCounterTable(threads),
  };
}
