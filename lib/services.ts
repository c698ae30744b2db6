/**
 * The composition root of `lib/`: builds every service over one store, one
 * clock and one event bus. `main.ts` and the tests call `createServices`; the
 * routes reach the result through `ctx.state.services`.
 */
import { AttestService } from "./attest/attest.ts";
import { type Core, loadCore } from "./attest/core.ts";
import { AttestRates } from "./attest/rates.ts";
import { SqliteAttestSessionRepo } from "./attest/session_repo.ts";
import { createAttestShared } from "./attest/shared.ts";
import { AuditLog } from "./audit/audit.ts";
import { SqliteAuditRepo } from "./audit/audit_repo.ts";
import { AuthService } from "./auth/auth.ts";
import { JwtService } from "./auth/jwt.ts";
import { SqliteLoginAttemptRepo } from "./auth/login_attempt_repo.ts";
import { LoginLimiter } from "./auth/login_limiter.ts";
import { SqliteSessionRepo } from "./auth/session_repo.ts";
import { SessionService } from "./auth/sessions.ts";
import { SqliteTokenRepo } from "./auth/token_repo.ts";
import { TokenService } from "./auth/tokens.ts";
import { SqliteUserRepo } from "./auth/user_repo.ts";
import { UserService } from "./auth/users.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config/config.ts";
import { parseAcl } from "./dns/acl.ts";
import { sqliteDnsRepos } from "./dns/dns_repos.ts";
import { DnsService } from "./dns/dns_service.ts";
import { DnsResponder } from "./dns/responder.ts";
import { DnsIndex } from "./dns/zone_index.ts";
import { EventBus } from "./events/bus.ts";
import type { HostDriver } from "./host/driver.ts";
import { selectDriver } from "./host/select_driver.ts";
import type { Logger } from "./log/log.ts";
import { SettingsService } from "./settings/settings.ts";
import { SqliteSettingsRepo } from "./settings/settings_repo.ts";
import type { Store } from "./store/store.ts";
import { databaseDiagnostics, Diagnostics } from "./system/diagnostics.ts";
import { SqliteMetaRepo } from "./system/meta_repo.ts";
import { SystemService } from "./system/system.ts";
import { SqliteSystemRepo } from "./system/system_repo.ts";
import { createTunnels, type Tunnels } from "./tunnel/tunnels.ts";

export interface Services {
  config: Config;
  log: Logger;
  clock: Clock;
  store: Store;
  events: EventBus;
  audit: AuditLog;
  users: UserService;
  auth: AuthService;
  jwt: JwtService;
  settings: SettingsService;
  system: SystemService;
  attest: AttestService;
  /** Attestation rates for the dashboard; emits `AttestStats` when a figure changes. */
  attestRates: AttestRates;
  dns: DnsService;
  /** Answers DNS messages from the in-memory index; the DNS listener feeds it. */
  dnsResponder: DnsResponder;
  tunnels: Tunnels;
  /** GET /diagnostics/…: one probe per subsystem (`database`, `tunnels`). */
  diagnostics: Diagnostics;
  /** Applies stored tunnel state to the host and starts the periodic pass; never throws. */
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

/** Builds every service; starts only cheap timers. */
export async function createServices(opts: ServiceOptions): Promise<Services> {
  const { config, store, log } = opts;
  const clock = opts.clock ?? systemClock;
  const events = new EventBus();
  const audit = new AuditLog(new SqliteAuditRepo(store), store, events, clock);
  const users = new UserService(new SqliteUserRepo(store), store, audit, clock);
  const sessions = new SessionService(new SqliteSessionRepo(store), clock);
  const tokens = new TokenService(new SqliteTokenRepo(store), store, audit, clock);
  const limiter = new LoginLimiter(new SqliteLoginAttemptRepo(store), store, clock);
  const auth = new AuthService(store, users, sessions, tokens, limiter, audit);
  const jwt = new JwtService(new SqliteMetaRepo(store), users, clock);
  const settings = new SettingsService(new SqliteSettingsRepo(store), store, audit, events, clock);
  const system = new SystemService(new SqliteSystemRepo(store), clock, opts.commit ?? "unknown");
  if (config.attest.heartbeatMinMs < 2000) {
    // Five heartbeats per ten seconds is the spec's limit: closer spacing gets clients rate-limited.
    log.warn(
      "PALISADE_ATTEST_HB_MIN_MS below 2000 lets clients exceed the 5-per-10-s heartbeat limit",
      {
        heartbeat_min_ms: config.attest.heartbeatMinMs,
      },
    );
  }
  const core = opts.core ?? await loadCore();
  // Row 0 of the shared counters is this thread's; each thread serving the listener has its own.
  const storedSessions = new SqliteAttestSessionRepo(store);
  const attestShared = createAttestShared(config.attest, 1 + config.attest.workers, {
    sessions: storedSessions.count(),
    maxChainLength: storedSessions.maxChainLength(),
  });
  const attest = new AttestService({
    sessions: storedSessions,
    tx: store,
    core,
    clock,
    options: config.attest,
    log: log.child({ service: "attest" }),
    shared: attestShared,
  });
  const attestRates = new AttestRates(attest, events, clock);
  system.addProbe({
    name: "attestation",
    summary: () => ({
      ...attest.stats(),
      accepted: attest.counters.accepted,
      rejected: attest.counters.rejectedTotal,
    }),
  });

  const dnsRepos = sqliteDnsRepos(store);
  const dnsIndex = new DnsIndex(dnsRepos);
  dnsIndex.load();
  const dns = new DnsService({
    ...dnsRepos,
    transactor: store,
    audit,
    events,
    clock,
    nameservers: config.dns.nameservers,
    index: dnsIndex,
  });
  const dnsResponder = new DnsResponder(dnsIndex, { axfrAllowed: parseAcl(config.dns.axfrAllow) });
  system.addProbe({ name: "dns", summary: () => dnsRepos.zones.counts() });

  const driver = opts.driver ??
    selectDriver({ driver: config.hostDriver, netns: config.host.netns, logger: log });
  const tunnels = createTunnels({
    store,
    audit,
    events,
    logger: log,
    driver,
    clock,
    serverEndpoint: () => settings.serverEndpoint(),
    pollMs: config.host.pollMs,
    autoReconcile: config.host.autoReconcile,
  });
  system.addProbe({
    name: "tunnels",
    summary: () => ({
      host_driver: driver.name,
      host_active: driver.active,
      ...tunnels.counts(),
    }),
  });

  const diagnostics = new Diagnostics()
    .register("database", () => databaseDiagnostics(new SqliteSystemRepo(store)))
    .register("tunnels", () => tunnels.diagnostics());

  const housekeeping = setInterval(() => {
    try {
      sessions.purgeExpired();
      attest.purgeExpired();
    } catch (err) {
      log.warn("housekeeping failed", { err });
    }
  }, HOUSEKEEPING_MS);
  Deno.unrefTimer(housekeeping);

  return {
    config,
    log,
    clock,
    store,
    events,
    audit,
    users,
    auth,
    jwt,
    settings,
    system,
    attest,
    attestRates,
    dns,
    dnsResponder,
    tunnels,
    diagnostics,
    async start() {
      attestRates.start();
      await tunnels.start();
    },
    async stop() {
      clearInterval(housekeeping);
      attestRates.stop();
      attest.close();
      await tunnels.stop();
    },
  };
}
