/**
 * The browser attestation service (specs/attestation.md): session creation
 * and heartbeat verification in the spec's check order, first failure
 * rejects. A rejection changes nothing; an acceptance is one compare-and-set
 * in the store (lib/attest/group_commit.ts). Callers only learn accepted or
 * not; the reason goes to the counters behind `/metrics`.
 */
import type { Clock } from "../clock.ts";
import { RateLimitError, UnavailableError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import { addressKey } from "../net/client_address.ts";
import type { Transactor } from "../store/transactor.ts";
import type { Core } from "./core.ts";
import { Ed25519Verifier } from "./ed25519.ts";
import { GroupCommit } from "./group_commit.ts";
import { initFailure, initResponse, newSession } from "./new_session.ts";
import { randomMutationOrder } from "./mutation_order.ts";
import { randomHex } from "./random_pool.ts";
import type { Accepted, HeartbeatOutcome, HeartbeatRequest, InitResponse } from "./messages.ts";
import { AttestCounters, type RejectReason, renderMetrics } from "./metrics.ts";
import { SlidingWindowLimiter } from "./rate_limiter.ts";
import { SharedSessionCache } from "./session_cache.ts";
import type { AttestSessionRepo, AttestStats } from "./session_repo.ts";
import { type AttestOptions, type AttestShared, createAttestShared } from "./shared.ts";
import { SharedMutex } from "./shared_mutex.ts";
import { verifyHeartbeat } from "./verify_heartbeat.ts";
import { SiteDirectory } from "./sites/site_directory.ts";
import { renderSiteMetrics } from "./sites/site_metrics.ts";
import type { SiteRepo } from "./sites/site_repo.ts";
import { TokenService, type TokenStores } from "./tokens/token_service.ts";
import { SessionSignals, type SessionSignalsView } from "./signals/signals.ts";
import { sessionSignals } from "./signals/session_signals.ts";
import type { SignalRepo } from "./signals/signal_repo.ts";

import { SESSION_TTL_MS } from "./new_session.ts";
export { SESSION_TTL_MS };

/** What the service is built from. */
export interface AttestDeps {
  sessions: AttestSessionRepo;
  tx: Transactor;
  core: Core;
  clock: Clock;
  options: AttestOptions;
  log: Logger;
  /** The registered sites (docs/attestation_sites.md); none when absent. */
  sites?: Pick<SiteRepo, "all">;
  /** The sites' tokens and the site reads they need (`POST /token`, `POST /siteverify`). */
  tokens?: TokenStores;
  /** Where automation signals of sites' sessions are kept (docs/attestation_sites.md); none when absent. */
  signals?: SignalRepo;
  /**
   * The state shared with the other threads serving the listener, and this
   * thread's counter row; without them the service stands alone.
   */
  shared?: AttestShared;
  row?: number;
}

export class AttestService {
  readonly counters: AttestCounters;
  readonly limiter: SlidingWindowLimiter;
  readonly shared: AttestShared;
  /** The sites by key and by origin, reloaded when another thread changed them. */
  readonly sites: SiteDirectory;
  /** Tokens and siteverify for the sites; null without a token store. */
  readonly tokens: TokenService | null;
  /** Automation signals of sessions whose heartbeats come from a site's origin. */
  readonly signals: SessionSignals;
  readonly #sessions: AttestSessionRepo;
  readonly #tx: Transactor;
  readonly #core: Core;
  readonly #clock: Clock;
  readonly #options: AttestOptions;
  readonly #log: Logger;
  readonly #verifier = new Ed25519Verifier();
  readonly #commits: GroupCommit;
  /** Sessions per client address per minute, against a flood of `/init` on the public listener. */
  readonly #initLimiter: SlidingWindowLimiter | null;
  /** Stored sessions, kept in shared memory so `/init` checks the cap without counting rows. */
  readonly #sessionCount: Int32Array;
  readonly #maxChainLength: Int32Array;
  readonly #writeLock: SharedMutex;
  readonly #cache: SharedSessionCache | null;
  /** Where a cached session's gene state is copied for the checks (they run synchronously). */
  readonly #gene: Uint8Array;

  constructor(deps: AttestDeps) {
    this.#sessions = deps.sessions;
    this.#tx = deps.tx;
    this.#core = deps.core;
    this.#clock = deps.clock;
    this.#options = deps.options;
    this.#log = deps.log;
    this.shared = deps.shared ?? createAttestShared(deps.options, 1, {
      sessions: deps.sessions.count(),
      maxChainLength: deps.sessions.maxChainLength(),
    });
    this.counters = new AttestCounters(this.shared.counters, deps.row ?? 0);
    this.sites = new SiteDirectory(
      deps.sites ?? { all: () => [] },
      this.shared.sites,
      deps.row ?? 0,
    );
    this.signals = new SessionSignals(deps.signals ?? null, deps.options);
    this.tokens = deps.tokens && deps.sites
      ? new TokenService({
        ...deps.tokens,
        directory: this.sites,
        clock: deps.clock,
        log: deps.log,
        counters: this.shared.tokens,
        row: deps.row ?? 0,
        signals: sessionSignals((id) => this.signals.signalsOf(id)),
      })
      : null;
    this.limiter = new SlidingWindowLimiter(this.shared.heartbeatLimits);
    this.#initLimiter = this.shared.initLimits && new SlidingWindowLimiter(this.shared.initLimits);
    this.#sessionCount = new Int32Array(this.shared.sessionCount);
    this.#maxChainLength = new Int32Array(this.shared.maxChainLength);
    this.#writeLock = new SharedMutex(this.shared.writeLock);
    this.#cache = this.shared.sessionCache && new SharedSessionCache(this.shared.sessionCache);
    this.#gene = new Uint8Array(this.#cache?.geneSize ?? 0);
    this.#commits = new GroupCommit({
      sessions: deps.sessions,
      tx: deps.tx,
      writeLock: this.#writeLock,
      cache: this.#cache,
      maxChainLength: this.#maxChainLength,
      log: deps.log,
      signals: deps.signals ?? null,
    });
  }

  /** Writes what is queued; call before closing the store. */
  close(): void {
    this.flush();
  }

  /**
   * Runs `fn` (a restore replacing the store's rows) while no thread writes
   * attestation state, then forgets the shared session cache and recounts:
   * both described the rows `fn` replaced.
   */
  whileWritesHeld<T>(fn: () => T): T {
    this.flush();
    this.#writeLock.lock();
    try {
      const result = fn();
      this.#cache?.forgetAll();
      Atomics.store(this.#sessionCount, 0, this.#sessions.count());
      Atomics.store(this.#maxChainLength, 0, this.#sessions.maxChainLength());
      // The restored store may hold other sites: every thread reloads them.
      this.sites.changed();
      return result;
    } finally {
      this.#writeLock.unlock();
    }
  }

  /** Writes queued acceptances now, after another thread's write if one is running (also on shutdown). */
  flush(): void {
    this.#commits.flush();
  }

  /**
   * Creates a session for a client's Ed25519 public key, for the site whose
   * key the page sent (`site.key`, null without one). Throws ValidationError
   * (400) for an unknown site key, ForbiddenError (403) when the request's
   * Origin is not one of the site's, RateLimitError (429) past the
   * per-address limit, UnavailableError (503) at the session cap, and
   * AttestInitError (the spec's 500) on any other failure.
   */
  init(
    publicKeyHex: unknown,
    clientAddress = "unknown",
    site: { key: string | null; origin: string | null } = { key: null, origin: null },
  ): InitResponse {
    const entry = site.key === null ? null : this.sites.entryFor(site.key, site.origin);
    // Keyed like the login throttle: an IPv6 client by its /64, which one subscriber usually holds.
    const key = addressKey(clientAddress);
    if (this.#initLimiter && !this.#initLimiter.allow(key, this.#clock.now())) {
      throw new RateLimitError("Too many sessions created from this address; try again later", 60);
    }
    if (Atomics.load(this.#sessionCount, 0) >= this.#options.maxSessions) {
      throw new UnavailableError(
        "The attestation service is at its session capacity; try again later",
      );
    }
    try {
      const session = newSession(
        { core: this.#core, geneSize: this.#options.geneSize, now: this.#clock.now() },
        publicKeyHex,
        entry?.id ?? null,
      );
      this.#writeLock.lock();
      try {
        const hint = this.#sessions.create(session);
        this.#cache?.put({ ...session, hint });
      } finally {
        this.#writeLock.unlock();
      }
      Atomics.add(this.#sessionCount, 0, 1);
      // Its first heartbeat is likely to come back over the same connection, to this thread.
      this.#verifier.prime(session.public_key);
      this.counters.add("sessionsCreated");
      if (entry) this.sites.counters.add(entry.slot, "sessionsCreated");
      return initResponse(session, this.#options);
    } catch (err) {
      throw initFailure(err, this.counters, this.#log);
    }
  }

  /**
   * Verifies a heartbeat in the spec's order; advances the session only when
   * every check passes. `headers` are the request's: its Origin attributes
   * the outcome to a site's counters and, when accepted, measures its signals
   * (read only while some site exists; a session of no site pays nothing).
   */
  async heartbeat(hb: HeartbeatRequest, headers?: Headers): Promise<HeartbeatOutcome> {
    const site = headers && !this.sites.empty()
      ? this.sites.siteOfOrigin(headers.get("origin"))
      : undefined;
    const slot = site ? site.slot : -1;
    const result = await this.#check(hb, site && this.signals.enabled ? site.id : null);
    if (typeof result === "string") {
      this.counters.reject(result);
      this.sites.counters.add(slot, result);
      return { accepted: false, reason: result };
    }
    this.counters.add("accepted");
    this.sites.counters.add(slot, "accepted");
    return { accepted: true, response: result };
  }

  async #check(hb: HeartbeatRequest, siteId: string | null): Promise<RejectReason | Accepted> {
    const now = this.#clock.now();
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
    const verdict = verifyHeartbeat(hb, s, now, this.#core, this.#verifier);
    if (!verdict.ok) return verdict.reason;
    // 13–14. New salt and order; persist with a compare-and-set on the state checked above.
    const nextSalt = randomHex(16);
    const nextOrder = randomMutationOrder();
    const expiresAt = now + SESSION_TTL_MS;
    const persisted = await this.#commits.persist({
      session_id: s.session_id,
      hint: s.hint,
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
      hint: s.hint,
      public_key: s.public_key,
      salt: nextSalt,
      last_hash: verdict.nextHash,
      pending_step: s.pending_step + 1,
      pending_order: nextOrder,
      gene_state: verdict.nextGene,
      chain_length: s.chain_length + 1,
      expires_at: expiresAt,
    }, siteId === null ? null : this.signals.observe(hb, siteId, now));
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

  /** A session's automation signals, or null (see SessionSignals.signalsOf). */
  signalsOf(sessionId: string): SessionSignalsView | null {
    return this.signals.signalsOf(sessionId);
  }

  /** `/stats`: stored sessions, expired ones not yet purged, highest chain length. */
  stats(): AttestStats {
    return {
      sessions: Atomics.load(this.#sessionCount, 0),
      expired_sessions: this.#sessions.expiredCount(this.#clock.now()),
      max_chain_length: Atomics.load(this.#maxChainLength, 0),
    };
  }

  /** `/metrics` in Prometheus text format. */
  metrics(): string {
    return renderMetrics(this.stats(), this.counters) +
      renderSiteMetrics(this.sites.entries(), this.sites.counters) + (this.tokens?.metrics() ?? "");
  }

  /** Deletes sessions expired for longer than the grace period; returns how many. */
  purgeExpired(): number {
    const cutoff = this.#clock.now() - this.#options.purgeGraceMs;
    this.#writeLock.lock();
    let purged: number;
    try {
      const result = this.#tx.tx(() => {
        const longestPurged = this.#sessions.maxChainLengthExpired(cutoff);
        const ids = this.#sessions.purge(cutoff);
        this.signals.purge(this.#clock.now());
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
    // One statement, run at once (no asynchronous transaction is open on this connection here).
    this.tokens?.purge().catch((err) => this.#log.warn("token purge failed", { err }));
    return purged;
  }
}
