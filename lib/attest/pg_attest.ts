/**
 * The attestation service on PostgreSQL (docs/scaling.md, "Attestation"):
 * the same checks in the same order as `AttestService` (SQLite), served from
 * the instance's main thread with asynchronous statements instead of worker
 * threads, a group commit and a shared write lock. Accepting a heartbeat is
 * ONE conditional update (`PgAttestSessionRepo.advance`), a compare-and-set
 * that several instances may race on: zero rows means another instance or a
 * replay won, and the heartbeat is refused as `conflict`. The in-process
 * session cache only saves the read of a session whose head it holds; a
 * failed compare-and-set drops the entry, so the next heartbeat reads the row.
 */
import type { Clock } from "../clock.ts";
import { RateLimitError, UnavailableError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import { addressKey } from "../net/client_address.ts";
import type { Core } from "./core.ts";
import { Ed25519Verifier } from "./ed25519.ts";
import type { Accepted, HeartbeatOutcome, HeartbeatRequest, InitResponse } from "./messages.ts";
import { AttestCounters, type RejectReason, renderMetrics } from "./metrics.ts";
import { randomMutationOrder } from "./mutation_order.ts";
import { initFailure, initResponse, newSession, SESSION_TTL_MS } from "./new_session.ts";
import { randomHex } from "./random_pool.ts";
import { SlidingWindowLimiter } from "./rate_limiter.ts";
import { SharedSessionCache } from "./session_cache.ts";
import type { AttestStats, HeartbeatSnapshot } from "./session_repo.ts";
import { type AttestOptions, type AttestShared, createAttestShared } from "./shared.ts";
import { sessionSignals } from "./signals/session_signals.ts";
import {
  type RecentSession,
  recentSession,
  REPLAY_WINDOW_MS,
  SessionSignals,
  type SessionSignalsView,
  signalsView,
} from "./signals/signals.ts";
import type { SiteDeps } from "./sites/site_service.ts";
import { SiteDirectory } from "./sites/site_directory.ts";
import { renderSiteMetrics } from "./sites/site_metrics.ts";
import type { SiteRow } from "./sites/site_repo.ts";
import type { AttestReposAsync } from "./sqlite_repos.ts";
import { TokenService } from "./tokens/token_service.ts";
import { verifyHeartbeat } from "./verify_heartbeat.ts";

export interface PgAttestDeps {
  repos: AttestReposAsync;
  core: Core;
  clock: Clock;
  options: AttestOptions;
  log: Logger;
}

export class PgAttestService {
  readonly counters: AttestCounters;
  readonly limiter: SlidingWindowLimiter;
  /** The sites by key and by origin, from the rows `refreshSites()` last read. */
  readonly sites: SiteDirectory;
  readonly signals: SessionSignals;
  /** `POST /token` and `/siteverify` over the shared tables (redemption is one conditional update). */
  readonly tokens: TokenService;
  readonly #d: PgAttestDeps;
  readonly #shared: AttestShared;
  readonly #verifier = new Ed25519Verifier();
  readonly #initLimiter: SlidingWindowLimiter | null;
  readonly #cache: SharedSessionCache | null;
  readonly #gene: Uint8Array;
  #siteRows: SiteRow[] = [];
  /** The table's sessions at the last count, plus this instance's creations since. */
  #sessionCount: number;
  #maxChainLength: number;

  private constructor(d: PgAttestDeps, stored: { sessions: number; maxChainLength: number }) {
    this.#d = d;
    // One row: every counter and limit is this instance's (per instance, see docs/scaling.md).
    this.#shared = createAttestShared(d.options, 1, stored);
    this.#sessionCount = stored.sessions;
    this.#maxChainLength = stored.maxChainLength;
    this.counters = new AttestCounters(this.#shared.counters, 0);
    this.limiter = new SlidingWindowLimiter(this.#shared.heartbeatLimits);
    this.#initLimiter = this.#shared.initLimits &&
      new SlidingWindowLimiter(this.#shared.initLimits);
    this.#cache = this.#shared.sessionCache && new SharedSessionCache(this.#shared.sessionCache);
    this.#gene = new Uint8Array(this.#cache?.geneSize ?? 0);
    this.sites = new SiteDirectory({ all: () => this.#siteRows }, this.#shared.sites, 0);
    // Here only observe() is used: the reads are signalsOf() below, asynchronous.
    this.signals = new SessionSignals(null, d.options);
    this.tokens = new TokenService({
      repo: d.repos.tokens,
      sites: d.repos.sites,
      directory: this.sites,
      clock: d.clock,
      log: d.log,
      counters: this.#shared.tokens,
      row: 0,
      signals: sessionSignals((id) => this.signalsOf(id)),
    });
  }

  /**
   * What the site service reads of this service: `new SiteService({ …,
   * attest: svc.forSites })`. A change it announces reloads the rows (the
   * directory alone would reload the stale ones).
   */
  get forSites(): SiteDeps["attest"] {
    return {
      sites: {
        counters: this.sites.counters,
        entries: () => this.sites.entries(),
        changed: () => {
          this.refreshSites().catch((err) =>
            this.#d.log.warn("reloading the attestation sites failed", { err })
          );
        },
      },
      tokens: this.tokens,
      signals: { recentOfSite: (siteId, limit) => this.#recentOfSite(siteId, limit) },
    };
  }

  async #recentOfSite(siteId: string, limit: number): Promise<RecentSession[]> {
    const rows = await this.#d.repos.signals.recentOfSite(siteId, limit);
    return rows.map((r) => recentSession(r, this.#d.options));
  }

  /** A session's automation signals, or null (none measured, no site, purged). */
  async signalsOf(sessionId: string): Promise<SessionSignalsView | null> {
    const row = await this.#d.repos.signals.get(sessionId.toLowerCase());
    const { heartbeatMinMs: min, heartbeatMaxMs: max } = this.#d.options;
    return row ? signalsView(row, min, max) : null;
  }

  /** Reads the session count, the longest chain and the sites, then serves. */
  static async open(d: PgAttestDeps): Promise<PgAttestService> {
    const [sessions, maxChainLength] = await Promise.all([
      d.repos.sessions.count(),
      d.repos.sessions.maxChainLength(),
    ]);
    const svc = new PgAttestService(d, { sessions, maxChainLength });
    await svc.refreshSites();
    return svc;
  }

  /** Reloads the sites (after a `SiteChanged` event, from this or another instance). */
  async refreshSites(): Promise<void> {
    this.#siteRows = await this.#d.repos.sites.all();
    this.sites.changed();
  }

  /**
   * `POST /init`: the same refusals as AttestService.init (400 unknown site
   * key, 403 foreign origin, 429 per address, 503 at the cap, 500 otherwise).
   */
  async init(
    publicKeyHex: unknown,
    clientAddress = "unknown",
    site: { key: string | null; origin: string | null } = { key: null, origin: null },
  ): Promise<InitResponse> {
    const { clock, options, core, repos } = this.#d;
    const entry = site.key === null ? null : this.sites.entryFor(site.key, site.origin);
    if (this.#initLimiter && !this.#initLimiter.allow(addressKey(clientAddress), clock.now())) {
      throw new RateLimitError("Too many sessions created from this address; try again later", 60);
    }
    if (this.#sessionCount >= options.maxSessions) {
      throw new UnavailableError(
        "The attestation service is at its session capacity; try again later",
      );
    }
    try {
      const s = newSession(
        { core, geneSize: options.geneSize, now: clock.now() },
        publicKeyHex,
        entry?.id ?? null,
      );
      const hint = await repos.sessions.create(s);
      this.#cache?.put({ ...s, hint });
      this.#sessionCount++;
      this.#verifier.prime(s.public_key);
      this.counters.add("sessionsCreated");
      if (entry) this.sites.counters.add(entry.slot, "sessionsCreated");
      return initResponse(s, options);
    } catch (err) {
      throw initFailure(err, this.counters, this.#d.log);
    }
  }

  /** `POST /hb`: verifies in the spec's order; accepted only when this instance's CAS wins. */
  async heartbeat(hb: HeartbeatRequest, headers?: Headers): Promise<HeartbeatOutcome> {
    const site = headers && !this.sites.empty()
      ? this.sites.siteOfOrigin(headers.get("origin"))
      : undefined;
    const slot = site ? site.slot : -1;
    const result = await this.#check(hb, site ? site.id : null);
    if (typeof result === "string") {
      this.counters.reject(result);
      this.sites.counters.add(slot, result);
      return { accepted: false, reason: result };
    }
    this.counters.add("accepted");
    this.sites.counters.add(slot, "accepted");
    return { accepted: true, response: result };
  }

  /** The session as the heartbeat claims to follow it: the cache's copy when it holds that head. */
  async #lookup(hb: HeartbeatRequest): Promise<HeartbeatSnapshot | undefined> {
    const cached = this.#cache?.get(hb.session_id, this.#gene);
    if (
      cached && cached.pending_step === hb.mutation_step &&
      cached.last_hash === hb.prev_hash.toLowerCase()
    ) {
      // The gene buffer is shared by every lookup: copy it before the next await.
      return { ...cached, gene_state: cached.gene_state.slice() };
    }
    return await this.#d.repos.sessions.snapshot(hb.session_id);
  }

  async #check(hb: HeartbeatRequest, siteId: string | null): Promise<RejectReason | Accepted> {
    const { clock, core, repos, log } = this.#d;
    if (!this.limiter.allow(hb.session_id, clock.now())) return "rate_limit";
    const s = await this.#lookup(hb);
    if (!s) return "unknown_session";
    const now = clock.now();
    if (now > s.expires_at) return "expired";
    const verdict = verifyHeartbeat(hb, s, now, core, this.#verifier);
    if (!verdict.ok) return verdict.reason;
    const next = {
      salt: randomHex(16),
      order: randomMutationOrder(),
      expiresAt: now + SESSION_TTL_MS,
    };
    const won = await repos.sessions.advance({
      session_id: s.session_id,
      hint: s.hint,
      expectHash: s.last_hash,
      expectStep: s.pending_step,
      expectExpiresAt: s.expires_at,
      nextHash: verdict.nextHash,
      nextSalt: next.salt,
      nextOrder: next.order,
      nextGene: verdict.nextGene,
      expiresAt: next.expiresAt,
      now,
    });
    if (!won) {
      // Another instance (or a replay) moved the row: the cached head is no longer the row's.
      this.#cache?.forget(s.session_id);
      return "conflict";
    }
    this.#cache?.put({
      ...s,
      salt: next.salt,
      last_hash: verdict.nextHash,
      pending_step: s.pending_step + 1,
      pending_order: next.order,
      gene_state: verdict.nextGene,
      chain_length: s.chain_length + 1,
      expires_at: next.expiresAt,
    });
    if (s.chain_length + 1 > this.#maxChainLength) this.#maxChainLength = s.chain_length + 1;
    if (siteId !== null) {
      // After the win, as its own statement; a failure never turns the acceptance into a refusal.
      await repos.signals.record(this.signals.observe(hb, siteId, now)).catch((err) =>
        log.error("recording attestation signals failed", { err })
      );
    }
    return {
      status: "ok",
      next_salt: next.salt,
      next_mutation_step: s.pending_step + 1,
      next_mutation_order_b64: next.order,
    };
  }

  /** `/stats`: the session count this instance keeps, expired ones (a query), the longest chain. */
  async stats(): Promise<AttestStats> {
    return {
      sessions: this.#sessionCount,
      expired_sessions: await this.#d.repos.sessions.expiredCount(this.#d.clock.now()),
      max_chain_length: this.#maxChainLength,
    };
  }

  /** `/metrics` in Prometheus text format. */
  async metrics(): Promise<string> {
    return renderMetrics(await this.stats(), this.counters) +
      renderSiteMetrics(this.sites.entries(), this.sites.counters) + this.tokens.metrics();
  }

  /**
   * Deletes sessions expired longer than the grace period, old path hashes
   * and old tokens (one statement each, harmless when two instances run it at
   * once), then recounts: the count also covers other instances' creations
   * and purges since the last pass.
   */
  async purgeExpired(): Promise<number> {
    const { clock, options, repos } = this.#d;
    const now = clock.now();
    const ids = await repos.sessions.purge(now - options.purgeGraceMs);
    for (const id of ids) this.#cache?.forget(id);
    await repos.signals.purgePaths(now - REPLAY_WINDOW_MS);
    await this.tokens.purge();
    const [count, longest] = await Promise.all([
      repos.sessions.count(),
      repos.sessions.maxChainLength(),
    ]);
    this.#sessionCount = count;
    this.#maxChainLength = longest;
    this.counters.add("purged", ids.length);
    return ids.length;
  }
}
