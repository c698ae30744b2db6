/**
 * The repositories of the tunnel domain, one factory per engine; the
 * composition root picks one (docs/scaling.md, "Ported domains").
 */
import type { PgAsync } from "../store/pg/pg_async.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import type { TunnelRepos } from "./context.ts";
import { SqliteFirewallRepo } from "./firewall/firewall_repo.ts";
import { PgFirewallRepo } from "./firewall/pg_firewall_repo.ts";
import { SqliteTunnelHistoryRepo } from "./history/history_repo.ts";
import { PgTunnelHistoryRepo } from "./history/pg_history_repo.ts";
import { SqliteInterfaceRepo } from "./interface_repo.ts";
import { SqliteLimitsRepo } from "./lifecycle/limits_repo.ts";
import { PgLimitsRepo } from "./lifecycle/pg_limits_repo.ts";
import { SqliteNetworkRepo } from "./networks/network_repo.ts";
import { PgNetworkRepo } from "./networks/pg_network_repo.ts";
import { PgInterfaceRepo } from "./pg_interface_repo.ts";
import { PgPeerRepo } from "./pg_peer_repo.ts";
import { SqlitePeerRepo } from "./peer_repo.ts";
import { PgRouteRepo } from "./routes/pg_route_repo.ts";
import { SqliteRouteRepo } from "./routes/route_repo.ts";

/** The interface, peer, network, route and firewall rule repositories over a SQLite store. */
export function sqliteTunnelRepos(store: Store): TunnelRepos {
  const db = SqliteAsync.of(store);
  return {
    interfaceRepo: new SqliteInterfaceRepo(db),
    peerRepo: new SqlitePeerRepo(db),
    networkRepo: new SqliteNetworkRepo(db),
    routeRepo: new SqliteRouteRepo(db),
    firewallRepo: new SqliteFirewallRepo(db),
    limitsRepo: new SqliteLimitsRepo(db),
    historyRepo: new SqliteTunnelHistoryRepo(db),
  };
}

/** The same repositories over PostgreSQL. */
export function pgTunnelRepos(db: PgAsync): TunnelRepos {
  return {
    interfaceRepo: new PgInterfaceRepo(db),
    peerRepo: new PgPeerRepo(db),
    networkRepo: new PgNetworkRepo(db),
    routeRepo: new PgRouteRepo(db),
    firewallRepo: new PgFirewallRepo(db),
    limitsRepo: new PgLimitsRepo(db),
    historyRepo: new PgTunnelHistoryRepo(db),
  };
}
