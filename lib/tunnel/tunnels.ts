/**
 * Entry module of the tunnel domain: builds the services over one store,
 * audit log, event bus and host driver, applies stored state at start and
 * runs the periodic pass. Routes call the services returned here.
 */
import type { AuditLog } from "../audit/audit.ts";
import { type Clock, isoTime, systemClock } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import type { HostDriver } from "../host/driver.ts";
import type { Logger } from "../log/log.ts";
import type { Store } from "../store/store.ts";
import { type ClientProfile, clientProfiles, resolveClientProfile } from "./client_profiles.ts";
import type { ServerEndpointSource, TunnelContext, TunnelRepos } from "./context.ts";
import type { PeerNamePublisher } from "./peer_dns.ts";
import type { SubsystemReport } from "../system/diagnostics.ts";
import { netDiagnostics, type TunnelDiagnostics, tunnelDiagnostics } from "./diagnostics.ts";
import { ensureDefaultInterface } from "./default_interface.ts";
import { FirewallService } from "./firewall/firewall_service.ts";
import { TunnelHistory } from "./history/history.ts";
import { HostSync } from "./host_sync.ts";
import { applyRelayedChanges } from "./relayed_changes.ts";
import type { TunnelCounts } from "./interface_repo.ts";
import { InterfaceService } from "./interface_service.ts";
import { TunnelMonitor } from "./monitor.ts";
import { LimitEnforcer } from "./lifecycle/enforce.ts";
import { PeerLimitsService } from "./lifecycle/limits_service.ts";
import { NetworkService } from "./networks/network_service.ts";
import { PeerService } from "./peer_service.ts";
import { Reconciler, type ReconcileResult } from "./reconcile.ts";
import { RouteService } from "./routes/route_service.ts";
import { Telemetry } from "./telemetry.ts";
import { sqliteTunnelRepos } from "./tunnel_repos.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import { UpstreamService } from "./upstream_import.ts";

export interface TunnelOptions {
  /** The SQLite store; the repositories and transactor are built over it unless given below. */
  store?: Store;
  /** The repositories (`pgTunnelRepos(db)` on PostgreSQL); default: over `store`. */
  repos?: TunnelRepos;
  /** The transactor matching `repos` (the `PgAsync`); default: `SqliteAsync.of(store)`. */
  transactor?: AsyncTransactor;
  audit: AuditLog;
  events: EventBus;
  logger: Logger;
  driver: HostDriver;
  /** Reads wireguard.server_host/server_port/server_endpoint_enabled. */
  serverEndpoint: ServerEndpointSource;
  clock?: Clock;
  /** PALISADE_HOST_POLL_MS: interval of the telemetry and drift pass (default 5000). */
  pollMs?: number;
  /** PALISADE_HOST_AUTO_RECONCILE: apply drift found by the pass (default false: report only). */
  autoReconcile?: boolean;
  /** How old a host read listings may reuse (default 1000 ms). */
  telemetryMaxAgeMs?: number;
  /** PALISADE_DEFAULT_INTERFACE: create wg0 at start when it is not stored (default false here). */
  defaultInterface?: boolean;
  /** Publishes peer names in DNS zones (lib/dns/owned_records.ts); without it no interface can. */
  names?: PeerNamePublisher;
}

export type { DiagnosticCheck, TunnelDiagnostics } from "./diagnostics.ts";

export interface Tunnels {
  interfaces: InterfaceService;
  peers: PeerService;
  networks: NetworkService;
  routes: RouteService;
  firewall: FirewallService;
  /** History and revert of peers, firewall rules and routes (lib/tunnel/history/). */
  history: TunnelHistory;
  /** POST /interfaces/upstreams/preview and /import. */
  upstreams: UpstreamService;
  reconciler: Reconciler;
  monitor: TunnelMonitor;
  /** Peer expiry and traffic quotas (docs/peer_lifecycle.md). */
  limits: PeerLimitsService;
  /** Enforces them: `due()` runs on the housekeeping tick, accounting after each monitor pass. */
  limitEnforcer: LimitEnforcer;
  telemetry: Telemetry;
  driver: HostDriver;
  /** GET /client-profiles */
  listClientProfiles(): ClientProfile[];
  /** GET /client-profiles/resolve */
  resolveClientProfile(device?: string, connection?: string): ClientProfile;
  /**
   * Gives interfaces stored before networks existed their network, applies
   * stored state to the host (a reboot loses nothing): interfaces and
   * peers, then routes (they need the devices) and the firewall table; then
   * starts the periodic pass. Never throws: a failure is logged, returned with
   * `verified: false` and shown by diagnostics.
   */
  start(): Promise<ReconcileResult>;
  /** Stops the periodic pass; devices stay up so clients keep their sessions. */
  stop(): Promise<void>;
  /** Checks for GET /diagnostics/tunnels. */
  diagnostics(): Promise<TunnelDiagnostics>;
  /** Checks for GET /diagnostics/firewall and /diagnostics/routes. */
  netDiagnostics(part: "firewall" | "routes"): Promise<SubsystemReport>;
  /** Stored interfaces, peers and enabled peers, for the tunnels probe of GET /system. */
  counts(): Promise<TunnelCounts>;
}

/** Builds the tunnel services; call `start()` once the process is ready. */
export function createTunnels(opts: TunnelOptions): Tunnels {
  const log = opts.logger.child({ component: "tunnels" });
  const repos = opts.repos ?? sqliteTunnelRepos(opts.store!);
  const host = new HostSync(repos, opts.driver, log);
  const stopRelayed = applyRelayedChanges(opts.events, host, log);
  const telemetry = new Telemetry(opts.driver, opts.telemetryMaxAgeMs ?? 1000);
  const ctx: TunnelContext = {
    ...repos,
    transactor: opts.transactor ?? SqliteAsync.of(opts.store!),
    audit: opts.audit,
    events: opts.events,
    clock: opts.clock ?? systemClock,
    log,
    host,
    telemetry,
    names: opts.names,
  };
  const reconciler = new Reconciler(ctx);
  const peers = new PeerService(ctx, opts.serverEndpoint);
  const { monitor, ...lifecycle } = monitorWithLimits(ctx, reconciler, peers, opts);
  const networks = new NetworkService(ctx);
  const interfaces = new InterfaceService(ctx);
  let startError: string | null = null;
  const [routes, firewall] = [new RouteService(ctx), new FirewallService(ctx)];
  return {
    interfaces,
    peers,
    upstreams: new UpstreamService(ctx, reconciler, (id) => peers.view(id)),
    networks,
    routes,
    firewall,
    history: new TunnelHistory(ctx, { peers, firewall, routes }),
    reconciler,
    monitor,
    ...lifecycle,
    telemetry,
    driver: opts.driver,
    listClientProfiles: clientProfiles,
    resolveClientProfile,
    async start() {
      await backfillNetworks(networks, log);
      const port = (await opts.serverEndpoint()).port;
      if (opts.defaultInterface) await ensureDefaultInterface(interfaces, ctx, port, log);
      try {
        const r = await reconciler.apply("system", { net: false });
        startError = null;
        log.info("Stored tunnel state applied", {
          applied: r.applied.length,
          verified: r.verified,
        });
        return await applyNetAtStart(host, r, (e) => {
          startError = e;
          log.error("Applying stored routes and firewall rules failed", { error: e });
        });
      } catch (err) {
        // Keep serving: the API is how an operator fixes the cause, and the
        // plan, diagnostics and the periodic pass show what is left.
        startError = (err as Error).message;
        log.error("Applying stored tunnel state failed", { error: err });
        const plan = await reconciler.plan().catch(() => null);
        return {
          driver: opts.driver.name,
          host_active: opts.driver.active,
          applied: [],
          remaining: plan?.items ?? [],
          verified: false,
          generated_at: isoTime(Date.now()),
          detail: startError,
        };
      } finally {
        monitor.start();
      }
    },
    stop: () => monitor.stop().finally(stopRelayed),
    diagnostics: () => tunnelDiagnostics(opts.driver, monitor, reconciler, startError),
    netDiagnostics: (part) => netDiagnostics(part, opts.driver, reconciler),
    counts: () => repos.interfaceRepo.counts(),
  };
}

/** The periodic pass, feeding each host read to the peer limits (lifecycle/enforce.ts). */
function monitorWithLimits(
  ctx: TunnelContext,
  reconciler: Reconciler,
  peers: PeerService,
  opts: TunnelOptions,
): { monitor: TunnelMonitor; limits: PeerLimitsService; limitEnforcer: LimitEnforcer } {
  const limitEnforcer = new LimitEnforcer(ctx, peers);
  const monitor = new TunnelMonitor(ctx, reconciler, {
    pollMs: opts.pollMs,
    autoReconcile: opts.autoReconcile,
    onState: (state) => limitEnforcer.account(state),
  });
  return { monitor, limits: new PeerLimitsService(ctx, limitEnforcer), limitEnforcer };
}

/** Gives interfaces stored before networks existed their network; logs, never throws. */
async function backfillNetworks(networks: NetworkService, log: Logger): Promise<void> {
  try {
    const made = await networks.backfill();
    if (made) log.info("Networks made for interfaces stored without one", { networks: made });
  } catch (err) {
    log.error("Giving interfaces their networks failed", { error: err });
  }
}

/**
 * Routes and the firewall table at start, after the devices exist. A failure
 * is reported like an interface failure (verified false, diagnostics'
 * startup_apply), and the firewall is still tried when the routes failed.
 */
async function applyNetAtStart(
  host: HostSync,
  r: ReconcileResult,
  fail: (error: string) => void,
): Promise<ReconcileResult> {
  if (!host.driver.active) return r;
  const jobs: [string, () => Promise<void>][] = [
    ["routes", () => host.syncRoutes()],
    ["firewall rules", () => host.syncFirewall()],
  ];
  const errors: string[] = [];
  for (const [what, fn] of jobs) {
    try {
      await host.run(fn);
    } catch (err) {
      errors.push(`Applying stored ${what} failed: ${(err as Error).message}`);
    }
  }
  if (!errors.length) return r;
  fail(errors.join("; "));
  return { ...r, verified: false, detail: [r.detail, ...errors].filter(Boolean).join("; ") };
}
