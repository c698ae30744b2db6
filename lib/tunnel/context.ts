/** What every tunnel service shares; built once by `createTunnels()`. */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { FirewallRepo } from "./firewall/firewall_repo.ts";
import type { TunnelHistoryRepo } from "./history/history_repo.ts";
import type { HostSync } from "./host_sync.ts";
import type { InterfaceRepo } from "./interface_repo.ts";
import type { LimitsRepo } from "./lifecycle/limits_repo.ts";
import type { NetworkRepo } from "./networks/network_repo.ts";
import type { PeerNamePublisher } from "./peer_dns.ts";
import type { PeerRepo } from "./peer_repo.ts";
import type { RouteRepo } from "./routes/route_repo.ts";
import type { Telemetry } from "./telemetry.ts";

/** The tunnel domain's repositories. */
export interface TunnelRepos {
  interfaceRepo: InterfaceRepo;
  peerRepo: PeerRepo;
  networkRepo: NetworkRepo;
  routeRepo: RouteRepo;
  firewallRepo: FirewallRepo;
  /** Peer expiry and quotas (lifecycle/). */
  limitsRepo: LimitsRepo;
  /** The history of peers, firewall rules and routes (lib/tunnel/history/). */
  historyRepo: TunnelHistoryRepo;
}

export interface TunnelContext extends TunnelRepos {
  transactor: AsyncTransactor;
  audit: AuditLog;
  events: EventBus;
  clock: Clock;
  log: Logger;
  host: HostSync;
  telemetry: Telemetry;
  /** Peer names in DNS (peer_dns.ts); absent when the tunnels run without the DNS service. */
  names?: PeerNamePublisher;
}

/** The address, port and switch stored as wireguard.server_* settings. */
export interface ServerEndpoint {
  host: string | null;
  port: number | null;
  enabled: boolean;
}

/** Reads the wireguard.server_* settings (supplied by the settings service). */
export type ServerEndpointSource = () => ServerEndpoint | Promise<ServerEndpoint>;
