/** The tunnel domain over the engine and the host driver the configuration chose. */
import type { HostDriver } from "../host/driver.ts";
import { selectDriver } from "../host/select_driver.ts";
import type { SystemService } from "../system/system.ts";
import type { ServerEndpointSource } from "../tunnel/context.ts";
import type { PeerNamePublisher } from "../tunnel/peer_dns.ts";
import { pgTunnelRepos, sqliteTunnelRepos } from "../tunnel/tunnel_repos.ts";
import { createTunnels, type Tunnels } from "../tunnel/tunnels.ts";
import { pickRepo } from "../store/engine.ts";
import type { Common } from "./common.ts";

/** Interfaces and peers over the host driver the configuration chose. */
export function tunnelServices(
  c: Common,
  system: SystemService,
  serverEndpoint: ServerEndpointSource,
  driver?: HostDriver,
  names?: PeerNamePublisher,
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
    repos: pickRepo(c.engine, {
      sqlite: (_db, store) => sqliteTunnelRepos(store),
      postgres: (db) => pgTunnelRepos(db),
    }),
    transactor: c.engine.db,
    audit: c.audit,
    events: c.events,
    logger: log,
    driver: host,
    clock: c.clock,
    serverEndpoint,
    pollMs: config.host.pollMs,
    autoReconcile: config.host.autoReconcile,
    defaultInterface: config.host.defaultInterface,
    names,
  });
  system.addProbe({
    name: "tunnels",
    summary: async () => ({
      host_driver: host.name,
      host_active: host.active,
      ...await tunnels.counts(),
    }),
  });
  return tunnels;
}
