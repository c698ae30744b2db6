/**
 * Routes and firewall rules in reconcile: the drift between the stored
 * routes and rules and Palisade's routes and nftables table on the host, as
 * plan items, and the two driver calls that put them back. The comparison is
 * the driver's own (`lib/host/net_diff.ts`), so the plan shows exactly what
 * apply changes.
 */
import type { HostDriver } from "../host/driver.ts";
import { diffFirewall, diffRoutes } from "../host/net_diff.ts";
import type { LiveFirewall, LiveRoute } from "../host/net_state.ts";
import type { TunnelRepos } from "./context.ts";
import { desiredFirewall, desiredRoutes } from "./net_desired.ts";
import type { ReconcileItem } from "./reconcile.ts";

/** Palisade's routes and table as read from the host; null parts were not read. */
export interface NetLive {
  routes: LiveRoute[] | null;
  firewall: LiveFirewall | null;
}

type Repos = Pick<TunnelRepos, "routeRepo" | "firewallRepo">;

const ACTIONS: Record<string, string> = {
  route_missing: "add the route",
  route_unexpected: "delete the route",
  route_changed: "replace the route",
  firewall_table_missing: "create Palisade's table with its rules",
  firewall_rule_missing: "add the rule",
  firewall_rule_unexpected: "remove the rule",
  firewall_rule_changed: "rewrite the rule",
  firewall_order: "put the rules back in order",
  firewall_chain: "restore the chain",
};

/** One read of Palisade's routes and table; null parts for an inactive driver. */
export async function readNet(driver: HostDriver): Promise<NetLive> {
  const [routes, firewall] = await Promise.all([driver.readRoutes(), driver.readFirewall()]);
  return { routes, firewall };
}

/** A plan item of the net kinds, with the interface fields left empty. */
function item(
  kind: string,
  ids: { route_id?: string | null; rule_id?: string | null; iface?: Iface | null },
  desired: string | null,
  live: string | null,
): ReconcileItem {
  return {
    kind: kind as ReconcileItem["kind"],
    interface: ids.iface?.name ?? null,
    interface_id: ids.iface?.id ?? null,
    peer_id: null,
    peer_name: null,
    public_key: null,
    field: null,
    route_id: ids.route_id ?? null,
    rule_id: ids.rule_id ?? null,
    desired,
    live,
    action: ACTIONS[kind],
  };
}

interface Iface {
  id: string;
  name: string;
}

/** The route and firewall drift of `live` against the store, as plan items. */
export async function netItems(repos: Repos, live: NetLive): Promise<ReconcileItem[]> {
  const out: ReconcileItem[] = [];
  if (live.routes) {
    const stored = new Map(
      (await repos.routeRepo.all()).map((r) => [`${r.destination}|${r.metric}`, r]),
    );
    for (const d of diffRoutes(await desiredRoutes(repos), live.routes)) {
      const r = stored.get(`${d.destination}|${d.metric}`);
      const iface = r ? { id: r.interface_id, name: r.interface_name } : null;
      // A route of ours on the host that the store no longer has belongs to no stored route.
      const route_id = d.kind === "route_unexpected" ? null : r?.id ?? null;
      out.push(
        item(
          d.kind,
          { route_id, iface: d.kind === "route_unexpected" ? null : iface },
          d.desired,
          d.live,
        ),
      );
    }
  }
  if (live.firewall) {
    const rules = new Map((await repos.firewallRepo.list()).map((r) => [r.id, r]));
    for (const d of diffFirewall(await desiredFirewall(repos), live.firewall)) {
      const r = d.rule_id ? rules.get(d.rule_id) : undefined;
      const iface = r?.interface_id ? { id: r.interface_id, name: r.interface_name! } : null;
      out.push(item(d.kind, { rule_id: r ? r.id : null, iface }, d.desired, d.live));
    }
  }
  return out;
}

/** True for the items `applyNet` handles. */
export const isRouteItem = (i: ReconcileItem) => i.kind.startsWith("route_");
export const isFirewallItem = (i: ReconcileItem) => i.kind.startsWith("firewall_");

/**
 * Puts back what `items` found: the whole route set and the whole table, the
 * same calls a change through the API makes. Returns the error messages.
 */
export async function applyNet(
  driver: HostDriver,
  repos: Repos,
  items: ReconcileItem[],
): Promise<string[]> {
  const errors: string[] = [];
  if (items.some(isRouteItem)) {
    await driver.setRoutes(await desiredRoutes(repos)).catch((err) =>
      errors.push(`routes: ${(err as Error).message}`)
    );
  }
  if (items.some(isFirewallItem)) {
    await driver.setFirewall(await desiredFirewall(repos)).catch((err) =>
      errors.push(`firewall: ${(err as Error).message}`)
    );
  }
  return errors;
}

/**
 * What apply put back, once each and only when it is there now: the stored
 * routes and rules of `before`'s items that `after` no longer lists (a table
 * made anew restores every enabled rule in it), for RouteChanged and
 * FirewallChanged `restored`.
 */
export async function restoredIds(
  repos: Repos,
  before: ReconcileItem[],
  after: ReconcileItem[],
): Promise<["RouteChanged" | "FirewallChanged", string][]> {
  const left = new Set(after.map((i) => i.route_id ?? i.rule_id));
  const restored = (ids: (string | null)[]) =>
    [...new Set(ids)].filter((id): id is string => id !== null && !left.has(id));
  const tableMissing = before.some((i) => i.kind === "firewall_table_missing");
  const ruleIds = before.map((i) => i.rule_id)
    .concat(tableMissing ? (await desiredFirewall(repos)).map((r) => r.id) : []);
  return [
    ...restored(before.map((i) => i.route_id)).map((id) => ["RouteChanged", id] as const),
    ...restored(ruleIds).map((id) => ["FirewallChanged", id] as const),
  ].map(([t, id]) => [t, id]);
}
