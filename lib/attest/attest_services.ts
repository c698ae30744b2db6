/**
 * The attestation services of the main thread, built for the composition
 * root (lib/services.ts) over either engine: on SQLite `AttestService` with
 * the state it shares with the threads serving the listener; on PostgreSQL
 * `PgAttestService` (no threads: docs/scaling.md, "Attestation").
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import type { StoreEngine } from "../store/engine.ts";
import type { Store } from "../store/store.ts";
import type { SystemService } from "../system/system.ts";
import { AttestService } from "./attest.ts";
import type { AttestRuntime } from "./attest_runtime.ts";
import { type Core, loadCore } from "./core.ts";
import { PgAttestService } from "./pg_attest.ts";
import { pgAttestRepos } from "./pg_repos.ts";
import { AttestRates } from "./rates.ts";
import { createAttestShared } from "./shared.ts";
import { SiteService } from "./sites/site_service.ts";
import { sqliteAttestRepos, sqliteAttestReposAsync } from "./sqlite_repos.ts";

export interface AttestDeps {
  config: Config;
  engine: StoreEngine;
  log: Logger;
  clock: Clock;
  events: EventBus;
  audit: AuditLog;
}

export interface AttestServices {
  attest: AttestRuntime;
  /** The SQLite engine's service (threads, write lock, cache); null on PostgreSQL. */
  attestSqlite: AttestService | null;
  attestRates: AttestRates;
  attestSites: SiteService;
  /** Stops the service's own work (the SQLite group commit). */
  close(): void;
}

export async function attestServices(
  d: AttestDeps,
  system: SystemService,
  core?: Core,
): Promise<AttestServices> {
  const { config, log, clock, events, audit, engine } = d;
  if (config.attest.heartbeatMinMs < 2000) {
    // Five heartbeats per ten seconds is the spec's limit: closer spacing gets clients rate-limited.
    log.warn(
      "PALISADE_ATTEST_HB_MIN_MS below 2000 lets clients exceed the 5-per-10-s heartbeat limit",
      { heartbeat_min_ms: config.attest.heartbeatMinMs },
    );
  }
  const loaded = core ?? await loadCore();
  const attestLog = log.child({ service: "attest" });
  let attest: AttestRuntime;
  let attestSqlite: AttestService | null = null;
  let sites: SiteService;
  if (engine.kind === "sqlite") {
    attestSqlite = sqliteAttest(config, engine.store, loaded, clock, attestLog);
    attest = attestSqlite;
    const repo = sqliteAttestReposAsync(engine.store).sites;
    sites = new SiteService({ repo, tx: engine.db, audit, events, clock, attest: attestSqlite });
  } else {
    const repos = pgAttestRepos(engine.db);
    const pg = await PgAttestService.open({
      repos,
      core: loaded,
      clock,
      options: config.attest,
      log: attestLog,
    });
    attest = pg;
    sites = new SiteService({
      repo: repos.sites,
      tx: engine.db,
      ...{ audit, events, clock, attest: pg.forSites },
    });
    // Another instance's site change: this one's directory reloads the rows.
    events.subscribe((e, origin) => {
      if (e.type === "SiteChanged" && origin !== undefined) {
        pg.refreshSites().catch((err) => attestLog.warn("reloading sites failed", { err }));
      }
    });
  }
  const attestRates = new AttestRates(attest, events, clock);
  system.addProbe({
    name: "attestation",
    summary: async () => ({
      ...(await attest.stats()),
      accepted: attest.counters.accepted,
      rejected: attest.counters.rejectedTotal,
    }),
  });
  return {
    attest,
    attestSqlite,
    attestRates,
    attestSites: sites,
    close: () => attestSqlite?.close(),
  };
}

/** Row 0 of the shared counters is this thread's; each thread serving the listener has its own. */
function sqliteAttest(
  config: Config,
  store: Store,
  core: Core,
  clock: Clock,
  log: Logger,
): AttestService {
  const repos = sqliteAttestRepos(store);
  const { sessions } = repos;
  const shared = createAttestShared(config.attest, 1 + config.attest.workers, {
    sessions: sessions.count(),
    maxChainLength: sessions.maxChainLength(),
  });
  return new AttestService({
    ...repos,
    tx: store,
    core,
    clock,
    options: config.attest,
    log,
    shared,
  });
}
