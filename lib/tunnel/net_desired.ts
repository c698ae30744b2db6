/**
 * Stored routes and firewall rules translated into what the host driver
 * applies (lib/host/net_state.ts). HostSync reads these when a job runs, not
 * when it was queued, so the last job applies the newest state.
 */
import type { DesiredFirewallRule, DesiredRoute } from "../host/net_state.ts";
import type { TunnelRepos } from "./context.ts";
import { parseCidr } from "./ipv4.ts";
import type { RouteRow } from "./routes/route_repo.ts";

type Repos = Pick<TunnelRepos, "routeRepo" | "firewallRepo">;

/** Orders routes by destination block (address, then prefix length), then metric. */
export function compareRoutes(
  a: Pick<RouteRow, "destination" | "metric">,
  b: Pick<RouteRow, "destination" | "metric">,
): number {
  const ca = parseCidr(a.destination)!, cb = parseCidr(b.destination)!;
  return ca.address - cb.address || ca.prefix - cb.prefix || a.metric - b.metric;
}

/**
 * The routes the host should have: those whose interface is enabled (a
 * disabled interface's link is down, and the kernel drops routes through a
 * down link), each through its interface's device, in `compareRoutes` order.
 */
export async function desiredRoutes(repos: Repos): Promise<DesiredRoute[]> {
  return (await repos.routeRepo.all())
    .filter((r) => r.interface_enabled === 1)
    .sort(compareRoutes)
    .map((r) => ({
      destination: r.destination,
      gateway: r.gateway,
      metric: r.metric,
      device: r.interface_name,
    }));
}

/** The enabled firewall rules by ascending position (evaluation order); disabled ones absent. */
export async function desiredFirewall(repos: Repos): Promise<DesiredFirewallRule[]> {
  return (await repos.firewallRepo.list())
    .filter((r) => r.enabled === 1)
    .map((r) => ({
      id: r.id,
      protocol: r.protocol,
      port: r.port,
      action: r.action,
      direction: r.direction,
      iifname: r.interface_name,
      source: r.source,
    }));
}
