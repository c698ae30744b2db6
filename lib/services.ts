/**
 * The composition root of `lib/`: every service over one store, clock and
 * event bus. `main.ts` and the tests call `createServices`; each listener
 * hands its routes only its slice of it (server/listeners/<name>/context.ts).
 */
import { AttestService } from "./attest/attest.ts";
import { attestDiagnostics, AttestThreadWatch } from "./attest/diagnostics.ts";
import { type Core, loadCore } from "./attest/core.ts";
import { AttestRates } from "./attest/rates.ts";
import { createAttestShared } from "./attest/shared.ts";
import { sqliteAttestRepos } from "./attest/sqlite_repos.ts";
import { SiteService } from "./attest/sites/site_service.ts";
import type { AuditLog } from "./audit/audit.ts";
import { sqliteAuditLog } from "./audit/sqlite_audit.ts";
import type { AuthService } from "./auth/auth.ts";
import { authServices } from "./auth/auth_services.ts";
import { SqliteBackupRepo } from "./backup/backup_repo.ts";
import { backupDiagnostics } from "./backup/diagnostics.ts";
import { BackupService } from "./backup/backups.ts";
import type { JwtService } from "./auth/jwt.ts";
import type { UserService } from "./auth/users.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config/config.ts";
import { ConsoleService } from "./console/console.ts";
import { parseAcl } from "./dns/acl.ts";
import { dnsDiagnostics } from "./dns/diagnostics.ts";
import { sqliteDnsRepos } from "./dns/dns_repos.ts";
import { DnsRuntime } from "./dns/dns_runtime.ts";
import { DnsService } from "./dns/dns_service.ts";
import { RolloverScheduler } from "./dns/dnssec/rollover_scheduler.ts";
import { DnsResponder } from "./dns/responder.ts";
import { rrlFor } from "./dns/rrl.ts";
import { DnsIndex } from "./dns/zone_index.ts";
import { EventBus } from "./events/bus.ts";
import { command } from "./host/command.ts";
import type { HostDriver } from "./host/driver.ts";
import { selectDriver } from "./host/select_driver.ts";
import type { Logger } from "./log/log.ts";
import { endpointOf, SettingsService } from "./settings/settings.ts";
import { SqliteSettingsRepo } from "./settings/settings_repo.ts";
import { migrations } from "./store/migrations/mod.ts";
import type { Store } from "./store/store.ts";
import { databaseDiagnostics, Diagnostics, type DiagnosticsProbe } from "./system/diagnostics.ts";
import { SystemService } from "./system/system.ts";
import { SqliteSystemRepo } from "./system/system_repo.ts";
import { createTunnels, type Tunnels } from "./tunnel/tunnels.ts";
import type { ServerEndpointSource } from "./tunnel/context.ts";
import { SqliteAsync } from "./store/sqlite_async.ts";
import { VERSION } from "./version.ts";

export interface Services {
  config: Config;
  log: Logger;
  clock: Clock;
  store: Store;
  events: EventBus;
  audit: AuditLog;
  users: UserService;
  auth: AuthService;
  /** The DNS API's logins: the same checks under their own throttle (`dns_login_failures`). */
  dnsAuth: AuthService;
  jwt: JwtService;
  settings: SettingsService;
  system: SystemService;
  attest: AttestService;
  /** Attestation rates for the dashboard; emits `AttestStats` when a figure changes. */
  attestRates: AttestRates;
  /** Attestation sites (docs/attestation_sites.md). */
  attestSites: SiteService;
  dns: DnsService;
  /** Answers DNS messages from the in-memory index; the DNS listener feeds it. */
  dnsResponder: DnsResponder;
  /** What the DNS listener and NOTIFY sender report, for diagnostics (set by server/). */
  dnsRuntime: DnsRuntime;
  /** How to count the attestation threads, for diagnostics (set by server/). */
  attestThreads: AttestThreadWatch;
  tunnels: Tunnels;
  /** GET /diagnostics/…: one probe per subsystem (docs/tunnels.md, "Diagnostics"). */
  diagnostics: Diagnostics;
  /** POST /cli/execute: the read-only console (lib/console/). */
  cli: ConsoleService;
  /** Snapshots of the store in `<data>/backups`, and their restore. */
  backups: BackupService;
  /**
   * Applies stored tunnel state to the host and starts the periodic passes
   * (tunnels, DNSSEC rollover steps due meanwhile at once); never throws.
   */
  start(): Promise<void>;
  /** Stops timers; the caller closes the store. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  store: Store;
  log: Logger;
  clock?: Clock;
  commit?: string;
  /** The attestation core; loaded from wasm/build/attest.wasm when absent. */
  core?: Core;
  /** The host driver; chosen from `config.hostDriver` when absent. */
  driver?: HostDriver;
}

/** Housekeeping runs every minute: expired sessions go away. */
const HOUSEKEEPING_MS = 60_000;

/** What every domain's services are built over. */
interface Common {
  config: Config;
  store: Store;
  log: Logger;
  clock: Clock;
  events: EventBus;
  audit: AuditLog;
}

/** The attestation service of this thread, with the state it shares with the serving threads. */
async function attestServices(c: Common, system: SystemService, core?: Core) {
  const { config, store, log, clock } = c;
  if (config.attest.heartbeatMinMs < 2000) {
    // Five heartbeats per ten seconds is the spec's limit: closer spacing gets clients rate-limited.
    log.warn(
      "PALISADE_ATTEST_HB_MIN_MS below 2000 lets clients exceed the 5-per-10-s heartbeat limit",
      { heartbeat_min_ms: config.attest.heartbeatMinMs },
    );
  }
  // Row 0 of the shared counters is this thread's; each thread serving the listener has its own.
  const repos = sqliteAttestRepos(store);
  const { sessions, sites: siteRepo } = repos;
  const shared = createAttestShared(config.attest, 1 + config.attest.workers, {
    sessions: sessions.count(),
    maxChainLength: sessions.maxChainLength(),
  });
  const attest = new AttestService({
    ...repos,
    tx: store,
    core: core ?? await loadCore(),
    clock,
    options: config.attest,
    log: log.child({ service: "attest" }),
    shared,
  });
  const attestRates = new AttestRates(attest, c.events, clock);
  system.addProbe({
    name: "attestation",
    summary: () => ({
      ...attest.stats(),
      accepted: attest.counters.accepted,
      rejected: attest.counters.rejectedTotal,
    }),
  });
  const { events, audit } = c;
  const sites = new SiteService({ repo: siteRepo, tx: store, audit, events, clock, attest });
  return { attest, attestRates, attestSites: sites };
}

/** Zones and records, and the in-memory index the DNS listener answers from. */
async function dnsServices(c: Common, system: SystemService) {
  const { config, store } = c;
  const repos = sqliteDnsRepos(store, config.dns.ixfrJournal);
  const index = new DnsIndex(repos, c.log.child({ service: "dns" }));
  await index.load();
  const ctx = {
    ...repos,
    transactor: SqliteAsync.of(store),
    ...{ audit: c.audit, events: c.events, clock: c.clock },
    nameservers: config.dns.nameservers,
    index,
    propagationDelay: config.dns.dnssec.propagationDelay,
  };
  const dns = new DnsService(ctx);
  await dns.tsig.keyring.load();
  // Key rollovers advance on this timer (started and stopped with the services).
  const rollover = new RolloverScheduler(ctx, {
    checkMs: config.dns.dnssec.rolloverCheckMs,
    log: c.log.child({ service: "dnssec" }),
  });
  const dnsResponder = new DnsResponder(index, {
    axfrAllowed: parseAcl(config.dns.axfrAllow),
    rrl: rrlFor(config.dns.rrl, config.dnsListen.hostname),
    tsigKeys: dns.tsig.keyring,
    updates: dns.updates,
  });
  system.addProbe({ name: "dns", summary: () => index.counts });
  const dnsRuntime = new DnsRuntime();
  const dnsProbe = () => dnsDiagnostics(dnsRuntime, repos.zones, index);
  return { dns, dnsResponder, rollover, index, dnsRuntime, dnsProbe };
}

/** Interfaces and peers over the host driver the configuration chose. */
function tunnelServices(
  c: Common,
  system: SystemService,
  serverEndpoint: ServerEndpointSource,
  driver?: HostDriver,
): Tunnels {
  const { config, log } = c;
  const host = driver ??
    selectDriver({
      driver: config.hostDriver,
      netns: config.host.netns,
      routeTable: config.host.routeTable,
      routeProtocol: config.host.routeProtocol,
      nftTable: config.host.nftTable,
      logger: log,
    });
  const tunnels = createTunnels({
    store: c.store,
    audit: c.audit,
    events: c.events,
    logger: log,
    driver: host,
    clock: c.clock,
    serverEndpoint,
    pollMs: config.host.pollMs,
    autoReconcile: config.host.autoReconcile,
    defaultInterface: config.host.defaultInterface,
  });
  system.addProbe({
    name: "tunnels",
    summary: () => ({ host_driver: host.name, host_active: host.active, ...tunnels.counts() }),
  });
  return tunnels;
}

/** Builds every service; starts only cheap timers. */
export async function createServices(opts: ServiceOptions): Promise<Services> {
  const { config, store, log } = opts;
  const clock = opts.clock ?? systemClock;
  const events = new EventBus();
  const db = SqliteAsync.of(store);
  const audit = sqliteAuditLog(store, events, clock);
  const common: Common = { config, store, log, clock, events, audit };
  const { users, sessions, auth, dnsAuth, jwt } = authServices(common);
  const settingsRepo = new SqliteSettingsRepo(db);
  const settings = new SettingsService(settingsRepo, db, audit, events, clock);
  const system = new SystemService(new SqliteSystemRepo(store), clock, opts.commit ?? "unknown");
  const { attest, attestRates, attestSites } = await attestServices(common, system, opts.core);
  const dnsParts = await dnsServices(common, system);
  const { dns, dnsResponder, rollover, index, dnsRuntime, dnsProbe } = dnsParts;
  const attestThreads = new AttestThreadWatch();
  // Synchronous until the tunnel domain is ported (it then awaits settings.serverEndpoint()).
  const serverEndpoint = () => endpointOf((key) => settingsRepo.valueNow(key));
  const tunnels = tunnelServices(common, system, serverEndpoint, opts.driver);
  const backups = backupService(common, { attest, index, dns, jwt, tunnels });
  const diagnostics = diagnosticsOf(common, {
    tunnels,
    dnsProbe,
    attestThreads,
    attestRates,
    backups,
  });
  const cli = consoleService(common, { tunnels, dns, dnsResponder, diagnostics, system });

  const housekeeping = setInterval(async () => {
    try {
      // The synchronous (not yet ported) pass first, while no asynchronous transaction is open.
      attest.purgeExpired();
      await sessions.purgeExpired();
    } catch (err) {
      log.warn("housekeeping failed", { err });
    }
  }, HOUSEKEEPING_MS);
  Deno.unrefTimer(housekeeping);

  return {
    ...common,
    users,
    auth,
    dnsAuth,
    jwt,
    settings,
    system,
    attest,
    attestRates,
    attestSites,
    dns,
    dnsResponder,
    dnsRuntime,
    attestThreads,
    tunnels,
    diagnostics,
    cli,
    backups,
    async start() {
      attestRates.start();
      attestSites.history.start();
      rollover.start();
      await tunnels.start();
    },
    async stop() {
      clearInterval(housekeeping);
      attestRates.stop();
      attestSites.history.stop();
      await rollover.stop();
      attest.close();
      await tunnels.stop();
    },
  };
}

/**
 * Snapshots of the store in `<data>/backups` and their restore, with what a
 * restore must rebuild: the DNS answer index, the JWT secret, the host state.
 */
function backupService(
  common: Common,
  d: {
    attest: AttestService;
    index: DnsIndex;
    dns: DnsService;
    jwt: { reload(): void };
    tunnels: Tunnels;
  },
): BackupService {
  const { config, store, audit, events, clock, log } = common;
  const { attest, index, dns, jwt, tunnels } = d;
  return new BackupService({
    repo: new SqliteBackupRepo(store),
    audit,
    events,
    clock,
    log: log.child({ service: "backup" }),
    dir: `${config.dataDir}/backups`,
    keep: config.backupKeep,
    appVersion: VERSION,
    hooks: {
      latestSchema: Math.max(...migrations.map((m) => m.version)),
      holdWrites: (fn) => attest.whileWritesHeld(fn),
      async rebuild() {
        await index.load();
        await dns.tsig.keyring.load();
        jwt.reload();
        // The rows are restored whatever the host says; drift stays visible in /reconcile/plan.
        await tunnels.reconciler.apply("system").catch((err) =>
          log.warn("host apply after a restore failed", { err })
        );
      },
    },
  });
}

/** GET /diagnostics: one probe per subsystem, each in its own domain. */
function diagnosticsOf(
  common: Common,
  d: {
    tunnels: Tunnels;
    dnsProbe: DiagnosticsProbe;
    attestThreads: AttestThreadWatch;
    attestRates: { snapshot(): Parameters<typeof attestDiagnostics>[1] };
    backups: BackupService;
  },
): Diagnostics {
  const schemaVersion = Math.max(...migrations.map((m) => m.version));
  return new Diagnostics()
    .register(
      "database",
      () => databaseDiagnostics(new SqliteSystemRepo(common.store), schemaVersion),
    )
    .register("tunnels", () => d.tunnels.diagnostics())
    .register("firewall", () => d.tunnels.netDiagnostics("firewall"))
    .register("routes", () => d.tunnels.netDiagnostics("routes"))
    .register("dns", d.dnsProbe)
    .register("attestation", () => attestDiagnostics(d.attestThreads, d.attestRates.snapshot()))
    .register("backups", () => backupDiagnostics(() => d.backups.list(), common.clock.now()));
}

/** POST /cli/execute: the read-only console, its host commands in the driver's namespace. */
function consoleService(
  common: Common,
  d: {
    tunnels: Tunnels;
    dns: DnsService;
    dnsResponder: DnsResponder;
    diagnostics: Diagnostics;
    system: SystemService;
  },
): ConsoleService {
  const { config, store, audit } = common;
  return new ConsoleService({
    tunnels: d.tunnels,
    dns: d.dns,
    responder: d.dnsResponder,
    diagnostics: d.diagnostics,
    system: d.system,
    audit,
    transactor: store,
    run: command(config.host.netns),
    netns: config.host.netns ?? null,
    nftTable: config.host.nftTable,
  });
}
