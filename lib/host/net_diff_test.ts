import { assertEquals } from "../../tests/assert.ts";
import { parseIpRoutes } from "./linux_routes.ts";
import { diffFirewall, diffRoutes } from "./net_diff.ts";
import type { DesiredFirewallRule, DesiredRoute, LiveFirewall } from "./net_state.ts";

const INPUT = "input: type filter hook input priority filter; policy accept;";
const FORWARD = "forward: type filter hook forward priority filter; policy accept;";

function route(destination: string, gateway = "10.99.0.2", metric = 100): DesiredRoute {
  return { destination, gateway, metric, device: "wg0" };
}

Deno.test("parseIpRoutes() gives canonical destinations and metric 0 when ip omits it", () => {
  const json = JSON.stringify([
    { dst: "default", gateway: "10.99.0.3", dev: "wg0", metric: 7, flags: [] },
    { dst: "10.50.0.0/24", gateway: "10.99.0.2", dev: "wg0", metric: 100, flags: [] },
    { dst: "10.51.0.5", gateway: "10.99.0.2", dev: "wg1", flags: [] },
  ]);
  assertEquals(parseIpRoutes(json), [
    { destination: "0.0.0.0/0", gateway: "10.99.0.3", metric: 7, device: "wg0" },
    { destination: "10.50.0.0/24", gateway: "10.99.0.2", metric: 100, device: "wg0" },
    { destination: "10.51.0.5/32", gateway: "10.99.0.2", metric: 0, device: "wg1" },
  ]);
});

Deno.test("diffRoutes() keys routes by destination and metric", () => {
  const desired = [
    route("10.50.0.0/24"),
    route("10.51.0.0/24"),
    route("10.52.0.0/24", "10.99.0.9"),
  ];
  const live = [
    route("10.50.0.0/24"),
    route("10.52.0.0/24", "10.99.0.2"),
    route("10.51.0.0/24", "10.99.0.2", 5),
  ];
  assertEquals(diffRoutes(desired, live), [
    {
      kind: "route_missing",
      destination: "10.51.0.0/24",
      metric: 100,
      desired: "10.51.0.0/24 via 10.99.0.2 dev wg0 metric 100",
      live: null,
    },
    {
      kind: "route_changed",
      destination: "10.52.0.0/24",
      metric: 100,
      desired: "10.52.0.0/24 via 10.99.0.9 dev wg0 metric 100",
      live: "10.52.0.0/24 via 10.99.0.2 dev wg0 metric 100",
    },
    {
      kind: "route_unexpected",
      destination: "10.51.0.0/24",
      metric: 5,
      desired: null,
      live: "10.51.0.0/24 via 10.99.0.2 dev wg0 metric 5",
    },
  ]);
  assertEquals(diffRoutes(live, live), []);
  assertEquals(
    diffRoutes([route("10.50.0.0/24")], [{ ...route("10.50.0.0/24"), device: "wg1" }])[0].kind,
    "route_changed",
  );
});

function fw(
  id: string,
  port: number,
  direction: "input" | "forward" = "input",
): DesiredFirewallRule {
  return { id, protocol: "tcp", port, action: "accept", direction, iifname: null, source: null };
}

function table(rules: [string, string | null, string][], chains = [INPUT, FORWARD]): LiveFirewall {
  return { present: true, chains, rules: rules.map(([chain, id, text]) => ({ chain, id, text })) };
}

const A = 'tcp dport 22 accept comment "palisade:a"';
const B = 'tcp dport 80 accept comment "palisade:b"';
const C = 'tcp dport 443 accept comment "palisade:c"';

Deno.test("diffFirewall() is empty when the table lists exactly the rendered rules", () => {
  const desired = [fw("a", 22), fw("b", 80), fw("c", 443, "forward")];
  assertEquals(
    diffFirewall(desired, table([["input", "a", A], ["input", "b", B], ["forward", "c", C]])),
    [],
  );
  assertEquals(diffFirewall([], table([])), []);
  assertEquals(diffFirewall([], { present: false, chains: [], rules: [] }), []);
});

Deno.test("diffFirewall() names a missing table, and missing, unexpected and changed rules", () => {
  assertEquals(diffFirewall([fw("a", 22)], { present: false, chains: [], rules: [] }, "pal"), [
    { kind: "firewall_table_missing", rule_id: null, desired: "table inet pal", live: null },
  ]);
  const desired = [fw("a", 22), fw("b", 80), fw("c", 443)];
  const live = table([
    ["input", null, "tcp dport 9999 accept"],
    ["input", "a", 'tcp dport 23 accept comment "palisade:a"'],
    ["input", "zz", 'tcp dport 1 accept comment "palisade:zz"'],
    ["forward", "c", C],
  ]);
  assertEquals(diffFirewall(desired, live), [
    {
      kind: "firewall_rule_unexpected",
      rule_id: null,
      desired: null,
      live: "input: tcp dport 9999 accept",
    },
    {
      kind: "firewall_rule_unexpected",
      rule_id: "zz",
      desired: null,
      live: 'input: tcp dport 1 accept comment "palisade:zz"',
    },
    {
      kind: "firewall_rule_changed",
      rule_id: "a",
      desired: `input: ${A}`,
      live: 'input: tcp dport 23 accept comment "palisade:a"',
    },
    { kind: "firewall_rule_missing", rule_id: "b", desired: `input: ${B}`, live: null },
    { kind: "firewall_rule_changed", rule_id: "c", desired: `input: ${C}`, live: `forward: ${C}` },
  ]);
});

Deno.test("diffFirewall() reports rules out of order, duplicates, and chains changed or added", () => {
  const desired = [fw("a", 22), fw("b", 80)];
  const live = table(
    [["input", "b", B], ["input", "a", A], ["input", "a", A]],
    ["input: type filter hook input priority filter; policy drop;", "extra:"],
  );
  assertEquals(diffFirewall(desired, live), [
    {
      kind: "firewall_chain",
      rule_id: null,
      desired: INPUT,
      live: "input: type filter hook input priority filter; policy drop;",
    },
    { kind: "firewall_chain", rule_id: null, desired: FORWARD, live: null },
    { kind: "firewall_chain", rule_id: null, desired: null, live: "extra:" },
    { kind: "firewall_rule_unexpected", rule_id: "a", desired: null, live: `input: ${A}` },
    { kind: "firewall_order", rule_id: null, desired: "input: a, b", live: "input: b, a" },
  ]);
});
