/**
 * The firewall renderer writes every rule shape exactly as nft lists it back,
 * which is what lets drift be judged by comparing text: every combination of
 * protocol, port, action, direction, incoming interface and source is
 * applied to a real nft and its listing compared with the rendered text.
 * Also: the configured route table, protocol and nft table reach the host.
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import {
  hostRoutes,
  hostTables,
  listedRuleLines,
  netnsWithLink,
} from "../../tests/helpers/net_host.ts";
import { haveSystem } from "../../tests/helpers/system.ts";
import { createLogger } from "../log/log.ts";
import { LinuxDriver } from "./linux_driver.ts";
import { diffFirewall } from "./net_diff.ts";
import type { DesiredFirewallRule, FirewallProtocol } from "./net_state.ts";
import { firewallRuleText } from "./nft_ruleset.ts";
import { selectDriver } from "./select_driver.ts";

function everyShape(): DesiredFirewallRule[] {
  const out: DesiredFirewallRule[] = [];
  const protocols: [FirewallProtocol, number | null][] = [
    ["tcp", null],
    ["tcp", 22],
    ["udp", null],
    ["udp", 65535],
    ["icmp", null],
    ["any", null],
  ];
  for (const [protocol, port] of protocols) {
    for (const action of ["accept", "drop", "reject"] as const) {
      for (const direction of ["input", "forward"] as const) {
        for (const iifname of [null, "wg-a_1.b"]) {
          for (const source of [null, "10.1.0.0/16", "10.2.3.4/32", "0.0.0.0/0"]) {
            const id = `r${out.length}`;
            out.push({ id, protocol, port, action, direction, iifname, source });
          }
        }
      }
    }
  }
  return out;
}

Deno.test("nft lists every rendered rule shape exactly as firewallRuleText() writes it", async () => {
  if (!haveSystem("nft listing", ["ip", "nft"], { root: true })) return;
  await using ns = await netnsWithLink();
  const rules = everyShape();
  assertEquals(rules.length, 288);
  const d = new LinuxDriver({ netns: ns.name });
  await d.setFirewall(rules);
  const listed = await listedRuleLines(ns, "palisade");
  for (const chain of ["input", "forward"] as const) {
    const want = rules.filter((r) => r.direction === chain).map(firewallRuleText);
    assertEquals(listed[chain].length, want.length, chain);
    for (let i = 0; i < want.length; i++) assertEquals(want[i], listed[chain][i], chain);
  }
  assertEquals(diffFirewall(rules, (await d.readFirewall())!), []);
});

Deno.test("selectDriver() hands the route table, route protocol and nft table to the linux driver", async () => {
  if (!haveSystem("net options", ["ip", "nft", "wg"], { root: true })) return;
  await using ns = await netnsWithLink();
  const d = selectDriver({
    driver: "linux",
    netns: ns.name,
    routeTable: 1000,
    routeProtocol: 120,
    nftTable: "pal_t",
    logger: createLogger("error", () => {}),
  });
  await d.setRoutes([{
    destination: "10.50.0.0/24",
    gateway: "10.99.0.2",
    metric: 9,
    device: "d0",
  }]);
  assertEquals(await hostRoutes(ns), [
    "10.50.0.0/24 via 10.99.0.2 dev d0 metric 9 proto 120 table 1000",
  ]);
  await d.setFirewall([{
    id: "x1",
    protocol: "any",
    port: null,
    action: "accept",
    direction: "input",
    iifname: null,
    source: null,
  }]);
  const tables = await hostTables(ns);
  assertEquals([...tables.keys()], ["inet pal_t"]);
  assert(tables.get("inet pal_t")!.rules.some((r) => r.comment === "palisade:x1"));
  await d.setRoutes([]);
  assertEquals(await hostRoutes(ns), []);
});
