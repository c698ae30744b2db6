/** The SQLite repositories of the tunnel domain over one store. */
import type { Store } from "../store/store.ts";
import type { TunnelRepos } from "./context.ts";
import { SqliteFirewallRepo } from "./firewall/firewall_repo.ts";
import { SqliteInterfaceRepo } from "./interface_repo.ts";
import { SqliteNetworkRepo } from "./networks/network_repo.ts";
import { SqlitePeerRepo } from "./peer_repo.ts";
import { SqliteRouteRepo } from "./routes/route_repo.ts";

/** Builds the interface, peer, network, route and firewall rule repositories over `store`. */
export function tunnelRepos(store: Store): TunnelRepos {
  return {
    interfaceRepo: new SqliteInterfaceRepo(store),
    peerRepo: new SqlitePeerRepo(store),
    networkRepo: new SqliteNetworkRepo(store),
    routeRepo: new SqliteRouteRepo(store),
    firewallRepo: new SqliteFirewallRepo(store),
  };
}
