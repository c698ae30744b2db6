/**
 * The composition root of `lib/`: every service over one store, clock and
 * event bus. `main.ts` and the tests call `createServices`; each listener
 * hands its routes only its slice of it (server/listeners/<name>/context.ts).
 */
import type { AttestService } from "./attest/attest.ts";
import type { AttestRuntime } from "./attest/attest_runtime.ts";
import { attestServices } from "./attest/attest_services.ts";
import type { Core } from "./attest/core.ts";
import { AttestThreadWatch } from "./attest/diagnostics.ts";
import type { AttestRates } from "./attest/rates.ts";
import type { SiteService } from "./attest/sites/site_service.ts";
import { AuditLog } from "./audit/audit.ts";
import type { AuthService } from "./auth/auth.ts";
import { authServices } from "./auth/auth_services.ts";
import type { Backups } from "./backup/backups.ts";
import { externalBackups } from "./backup/external.ts";
import { joinCluster } from "./cluster.ts";
import { pgMigrations } from "./store/pg/migrations/mod.ts";
import type { JwtService } from "./auth/jwt.ts";
import type { UserService } from "./auth/users.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config/config.ts";
import { ConsoleService } from "./console/console.ts";
import { DnsRuntime } from "./dns/dns_runtime.ts";
import { DnsService } from "./dns/dns_service.ts";
import type { ApiKeyService } from "./dns/api_keys/api_key_service.ts";
import { DnsResponder } from "./dns/responder.ts";
import { EventBus } from "./events/bus.ts";
import type { HostDriver } from "./host/driver.ts";
import type { Logger } from "./log/log.ts";
import type { SettingsService } from "./settings/settings.ts";
import { migrations } from "./store/migrations/mod.ts";
import type { Diagnostics } from "./system/diagnostics.ts";
import type { SystemService } from "./system/system.ts";
import type { Tunnels } from "./tunnel/tunnels.ts";
import type { StoreEngine } from "./store/engine.ts";
import { auditLogOf, coreServices } from "./compose/core.ts";
import { startHousekeeping } from "./compose/housekeeping.ts";
import type { Common } from "./compose/common.ts";
import { backupService, consoleService, diagnosticsOf } from "./compose/support.ts";
import { tunnelServices } from "./compose/tunnels.ts";
import { dnsServices } from "./compose/dns.ts";
import { webhookServices } from "./compose/webhooks.ts";
import type { WebhookService } from "./webhooks/webhook_service.ts";
import { type Sso, ssoServices } from "./compose/sso.ts";

export interface Services {
  config: Config;
  log: Logger;
  clock: Clock;
  /** The store the services run on (SQLite or PostgreSQL). */
  engine: StoreEngine;
  events: EventBus;
  audit: AuditLog;
  users: UserService;
  auth: AuthService;
  /** The DNS API's logins: the same checks under their own throttle (`dns_login_failures`). */
  dnsAuth: AuthService;
  jwt: JwtService;
  settings: SettingsService;
  system: SystemService;
  attest: AttestRuntime;
  /** The SQLite engine's attestation service (threads, write lock, cache); null on PostgreSQL. */
  attestSqlite: AttestService | null;
  /** Attestation rates for the dashboard; emits `AttestStats` when a figure changes. */
  attestRates: AttestRates;
  /** Attestation sites (docs/attestation_sites.md). */
  attestSites: SiteService;
  dns: DnsService;
  /** Scoped DNS API keys (docs/dns.md, "API keys"). */
  dnsApiKeys: ApiKeyService;
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
  /** Snapshots of the store in `<data>/backups`, and their restore (refused on PostgreSQL). */
  backups: Backups;
  /** Outgoing webhooks (docs/webhooks.md). */
  webhooks: WebhookService;
  /** Single sign-on with OpenID Connect (docs/sso.md). */
  sso: Sso;
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
  /** The store: SQLite (`sqliteEngine(store)`) or PostgreSQL (lib/store/open_engine.ts). */
  engine: StoreEngine;
  log: Logger;
  clock?: Clock;
  commit?: string;
  /** The attestation core; loaded from wasm/build/attest.wasm when absent. */
  core?: Core;
  /** The host driver; chosen from `config.hostDriver` when absent. */
  driver?: HostDriver;
}

/** The newest schema version the engine's migrations know. */
const schemaVersionOf = (engine: StoreEngine) =>
  Math.max(...(engine.kind === "sqlite" ? migrations : pgMigrations).map((m) => m.version));

/** Builds every service; starts only cheap timers. */
export async function createServices(opts: ServiceOptions): Promise<Services> {
  const { config, engine, log } = opts;
  const clock = opts.clock ?? systemClock;
  const events = new EventBus();
  const audit = auditLogOf(engine, events, clock);
  const common: Common = { config, engine, log, clock, events, audit };
  const cluster = await joinCluster(engine, events, log);
  const { users, sessions, auth, dnsAuth, jwt } = await authServices({ ...common, engine });
  const commit = opts.commit ?? "unknown";
  const { settings, system, systemRepo } = coreServices(engine, { audit, events, clock, commit });
  const attestParts = await attestServices({ ...common, engine }, system, opts.core);
  const { attest, attestSqlite, attestRates, attestSites } = attestParts;
  const dnsParts = await dnsServices(common, system, cluster.elector);
  const { dns, dnsApiKeys, dnsResponder, rollover, index, dnsRuntime, dnsProbe } = dnsParts;
  const attestThreads = new AttestThreadWatch();
  const endpoint = () => settings.serverEndpoint();
  const tunnels = tunnelServices(common, system, endpoint, opts.driver, dnsParts.peerNames);
  const backups = engine.kind === "sqlite"
    ? backupService(common, engine.store, { attest: attestSqlite!, index, dns, jwt, tunnels })
    : externalBackups();
  const diagnostics = diagnosticsOf(common, {
    tunnels,
    dnsProbe,
    attestThreads,
    attestRates,
    backups,
    systemRepo,
    schemaVersion: schemaVersionOf(engine),
  });
  const cli = consoleService(common, { tunnels, dns, dnsResponder, diagnostics, system });
  const hooks = webhookServices(common);
  const stopHousekeeping = startHousekeeping(cluster.elector, log, {
    attest: () => attest.purgeExpired(),
    sessions: () => sessions.purgeExpired(),
    peerLimits: () => tunnels.limitEnforcer.due(),
  });
  return {
    ...common,
    users,
    auth,
    dnsAuth,
    jwt,
    settings,
    system,
    attest,
    attestSqlite,
    attestRates,
    attestSites,
    dns,
    dnsApiKeys,
    dnsResponder,
    dnsRuntime,
    attestThreads,
    tunnels,
    diagnostics,
    cli,
    backups,
    webhooks: hooks.webhooks,
    sso: await ssoServices(common, auth, sessions),
    async start() {
      attestRates.start();
      attestSites.history.start();
      rollover.start();
      await dnsParts.sync?.start();
      await tunnels.start();
    },
    async stop() {
      stopHousekeeping();
      hooks.stop();
      attestRates.stop();
      attestSites.history.stop();
      await rollover.stop();
      await dnsParts.sync?.stop();
      attestParts.close();
      await tunnels.stop();
      await cluster.stop();
    },
  };
}
