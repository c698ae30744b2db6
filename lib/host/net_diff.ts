/**
 * The one comparison of desired and live routes and firewall rules. The
 * linux driver uses `diffRoutes` to choose its commands and the reconcile
 * layer both functions to report drift, so "what apply would change" and
 * "what the plan shows" cannot disagree (as `diff.ts` for interfaces).
 */
import type { DesiredFirewallRule, DesiredRoute, LiveFirewall, LiveRoute } from "./net_state.ts";
import { chainLine, FIREWALL_CHAINS, firewallRuleLine, firewallRuleText } from "./nft_ruleset.ts";

export type RouteDriftKind = "route_missing" | "route_unexpected" | "route_changed";

/** One route difference; routes are keyed by destination and metric, as the kernel keys them. */
export interface RouteDrift {
  kind: RouteDriftKind;
  destination: string;
  metric: number;
  /** `routeText()` of the desired route; null for an unexpected one. */
  desired: string | null;
  /** `routeText()` of the live route; null for a missing one. */
  live: string | null;
}

/** A route in `ip route` words: "10.50.0.0/24 via 10.99.0.2 dev wg0 metric 100". */
export function routeText(r: DesiredRoute): string {
  return `${r.destination} via ${r.gateway} dev ${r.device} metric ${r.metric}`;
}

const routeKey = (r: DesiredRoute) => `${r.destination}|${r.metric}`;

/** Differences between the routes the store wants and Palisade's routes on the host. */
export function diffRoutes(desired: DesiredRoute[], live: LiveRoute[]): RouteDrift[] {
  const have = new Map(live.map((r) => [routeKey(r), r]));
  const want = new Set(desired.map(routeKey));
  const out: RouteDrift[] = [];
  for (const d of desired) {
    const l = have.get(routeKey(d));
    const base = { destination: d.destination, metric: d.metric, desired: routeText(d) };
    if (!l) out.push({ kind: "route_missing", ...base, live: null });
    else if (l.gateway !== d.gateway || l.device !== d.device) {
      out.push({ kind: "route_changed", ...base, live: routeText(l) });
    }
  }
  for (const l of live) {
    if (want.has(routeKey(l))) continue;
    out.push({
      kind: "route_unexpected",
      destination: l.destination,
      metric: l.metric,
      desired: null,
      live: routeText(l),
    });
  }
  return out;
}

export type FirewallDriftKind =
  | "firewall_table_missing"
  | "firewall_rule_missing"
  | "firewall_rule_unexpected"
  | "firewall_rule_changed"
  | "firewall_order"
  | "firewall_chain";

/**
 * One difference in Palisade's table. `desired` and `live` are lines
 * qualified by their chain ("input: tcp dport 22 accept comment …"): a rule's
 * text as nft lists it, a chain's header, or for `firewall_order` the rule
 * ids of one chain in order; null on the side that lacks it.
 */
export interface FirewallDrift {
  kind: FirewallDriftKind;
  /** The stored rule's id; null for a chain, the order, or a rule without a Palisade comment. */
  rule_id: string | null;
  desired: string | null;
  live: string | null;
}

function chainDrift(live: LiveFirewall): FirewallDrift[] {
  const out: FirewallDrift[] = [];
  const have = new Map(live.chains.map((c) => [c.slice(0, c.indexOf(":")), c]));
  for (const name of FIREWALL_CHAINS) {
    const l = have.get(name) ?? null;
    if (l !== chainLine(name)) {
      out.push({ kind: "firewall_chain", rule_id: null, desired: chainLine(name), live: l });
    }
    have.delete(name);
  }
  for (const l of have.values()) {
    out.push({ kind: "firewall_chain", rule_id: null, desired: null, live: l });
  }
  return out;
}

/**
 * Differences between the enabled rules the store wants, in order, and
 * Palisade's table on the host. A live rule belongs to a stored rule by its
 * comment "palisade:<id>"; any other rule in the table is unexpected.
 */
export function diffFirewall(
  desired: DesiredFirewallRule[],
  live: LiveFirewall,
  table = "palisade",
): FirewallDrift[] {
  // No table and no rule to enforce is no drift: a host where nobody made a rule has nothing to fix.
  if (!live.present && desired.length === 0) return [];
  if (!live.present) {
    return [{
      kind: "firewall_table_missing",
      rule_id: null,
      desired: `table inet ${table}`,
      live: null,
    }];
  }
  const out = chainDrift(live);
  const wanted = new Set(desired.map((d) => d.id));
  const matched = new Map<string, LiveFirewall["rules"][number]>();
  for (const l of live.rules) {
    if (l.id !== null && wanted.has(l.id) && !matched.has(l.id)) {
      matched.set(l.id, l);
      continue;
    }
    out.push({
      kind: "firewall_rule_unexpected",
      rule_id: l.id,
      desired: null,
      live: `${l.chain}: ${l.text}`,
    });
  }
  for (const d of desired) {
    const l = matched.get(d.id);
    if (!l) {
      out.push({
        kind: "firewall_rule_missing",
        rule_id: d.id,
        desired: firewallRuleLine(d),
        live: null,
      });
    } else if (l.chain !== d.direction || l.text !== firewallRuleText(d)) {
      out.push({
        kind: "firewall_rule_changed",
        rule_id: d.id,
        desired: firewallRuleLine(d),
        live: `${l.chain}: ${l.text}`,
      });
    }
  }
  out.push(...orderDrift(desired, live, matched));
  return out;
}

/** Per chain: the stored rules found there, in desired versus listed order. */
function orderDrift(
  desired: DesiredFirewallRule[],
  live: LiveFirewall,
  matched: Map<string, LiveFirewall["rules"][number]>,
): FirewallDrift[] {
  const out: FirewallDrift[] = [];
  for (const chain of FIREWALL_CHAINS) {
    const want = desired
      .filter((d) => d.direction === chain && matched.get(d.id)?.chain === chain)
      .map((d) => d.id);
    const placed = new Set(want);
    const have = live.rules
      .filter((l) =>
        l.chain === chain && l.id !== null && placed.has(l.id) && matched.get(l.id) === l
      )
      .map((l) => l.id!);
    if (want.join(",") !== have.join(",")) {
      out.push({
        kind: "firewall_order",
        rule_id: null,
        desired: `${chain}: ${want.join(", ")}`,
        live: `${chain}: ${have.join(", ")}`,
      });
    }
  }
  return out;
}
