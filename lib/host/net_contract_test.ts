/**
 * The route and firewall contract every host driver passes. An active driver
 * must put exactly Palisade's routes (its protocol, its table) and exactly
 * Palisade's nftables table on the host, checked with `ip -j` and `nft -j`
 * parsed by the test's own helpers, and touch no other route or table; an
 * inactive one reads null and accepts everything.
 */
import { assert, assertEquals, assertRejects } from "../../tests/assert.ts";
import {
  commentsByChain,
  hostRoutes,
  hostTables,
  netnsWithLink,
} from "../../tests/helpers/net_host.ts";
import type { Netns } from "../../tests/helpers/netns.ts";
import { haveSystem } from "../../tests/helpers/system.ts";
import { HostError } from "../errors.ts";
import type { HostDriver } from "./driver.ts";
import { LinuxDriver } from "./linux_driver.ts";
import { diffFirewall, diffRoutes } from "./net_diff.ts";
import type { DesiredFirewallRule, DesiredRoute } from "./net_state.ts";
import { NoneDriver } from "./none_driver.ts";

interface Subject extends AsyncDisposable {
  driver: HostDriver;
  /** The namespace the driver acts in; null for an inactive driver. */
  ns: Netns | null;
}

const subjects: { name: string; make: () => Promise<Subject | null> }[] = [
  {
    name: "none",
    make: () =>
      Promise.resolve({
        driver: new NoneDriver(),
        ns: null,
        [Symbol.asyncDispose]: () => Promise.resolve(),
      }),
  },
  {
    name: "linux",
    make: async () => {
      if (!haveSystem("net contract (linux)", ["ip", "nft"], { root: true })) return null;
      const ns = await netnsWithLink();
      return {
        driver: new LinuxDriver({ netns: ns.name }),
        ns,
        [Symbol.asyncDispose]: () => ns[Symbol.asyncDispose](),
      };
    },
  },
];

const route = (destination: string, gateway: string, metric: number): DesiredRoute => ({
  destination,
  gateway,
  metric,
  device: "d0",
});

/** Routes the test itself adds: another protocol in main, Palisade's protocol in another table. */
const OTHERS = [
  "10.53.0.0/16 via 10.99.0.3 dev d0 metric 0 proto 4 table 254",
  "10.54.0.0/16 via 10.99.0.3 dev d0 metric 0 proto 97 table 1000",
];

function fw(
  id: string,
  protocol: DesiredFirewallRule["protocol"],
  port: number | null,
  action: DesiredFirewallRule["action"],
  direction: DesiredFirewallRule["direction"],
  iifname: string | null,
  source: string | null,
): DesiredFirewallRule {
  return { id, protocol, port, action, direction, iifname, source };
}

const RULES = [
  fw("r1", "tcp", 22, "accept", "input", null, null),
  fw("r2", "udp", null, "reject", "forward", "d0", null),
  fw("r3", "any", null, "drop", "input", null, "10.7.0.0/16"),
  fw("r4", "icmp", null, "reject", "input", "d0", "10.8.0.1/32"),
];

/**
 * Creates `table inet other` with a rule, then returns a check: the host has
 * Palisade's table with its two base chains and these comments per chain,
 * and the other table exactly as it was.
 */
async function firewallHost(ns: Netns) {
  await ns.exec("nft", ["add", "table", "inet", "other"]);
  // deno-fmt-ignore
  await ns.exec("nft", ["add", "chain", "inet", "other", "c", "{ type filter hook input priority 0; policy accept; }"]);
  await ns.exec("nft", ["add", "rule", "inet", "other", "c", "tcp", "dport", "7", "drop"]);
  const other = (await hostTables(ns)).get("inet other")!.raw;
  return async (want: Record<string, string[]>, step: string) => {
    const tables = await hostTables(ns);
    const t = tables.get("inet palisade");
    assert(t, `${step}: table inet palisade exists`);
    assertEquals(t.chains, [
      { name: "input", type: "filter", hook: "input", prio: 0, policy: "accept" },
      { name: "forward", type: "filter", hook: "forward", prio: 0, policy: "accept" },
    ], step);
    assertEquals(commentsByChain(t), want, step);
    assertEquals(tables.get("inet other")!.raw, other, `${step}: other table untouched`);
  };
}

/** By hand: r3 deleted, r1 altered, a rule without a Palisade comment added. */
async function editByHand(ns: Netns) {
  const handle = async (comment: string) =>
    String(
      (await hostTables(ns)).get("inet palisade")!.rules.find((r) => r.comment === comment)!.handle,
    );
  const rule = ["rule", "inet", "palisade"];
  await ns.exec("nft", ["delete", ...rule, "input", "handle", await handle("palisade:r3")]);
  // deno-fmt-ignore
  await ns.exec("nft", ["replace", ...rule, "input", "handle", await handle("palisade:r1"), "tcp", "dport", "23", "accept", "comment", '"palisade:r1"']);
  await ns.exec("nft", ["add", ...rule, "forward", "tcp", "dport", "9999", "accept"]);
}

for (const subject of subjects) {
  Deno.test(`NetDriver contract (${subject.name}): setRoutes, readRoutes`, async () => {
    const s = await subject.make();
    if (!s) return;
    await using _ = s;
    const d = s.driver;
    const ns = s.ns;
    if (ns) {
      await ns.exec("ip", ["route", "add", "10.53.0.0/16", "via", "10.99.0.3", "proto", "static"]);
      // deno-fmt-ignore
      await ns.exec("ip", ["route", "add", "10.54.0.0/16", "via", "10.99.0.3", "proto", "97", "table", "1000"]);
    }
    const host = async (ours: string[], step: string) => {
      if (ns) assertEquals(await hostRoutes(ns), [...ours, ...OTHERS].sort(), step);
    };
    const reads = async (want: DesiredRoute[], step: string) => {
      const live = await d.readRoutes();
      if (!d.active) return assertEquals(live, null);
      assertEquals(diffRoutes(want, live!), [], step);
      assertEquals(live!.length, want.length, step);
    };

    let want = [
      route("10.50.0.0/24", "10.99.0.2", 100),
      route("10.51.0.5/32", "10.99.0.3", 0),
      route("0.0.0.0/0", "10.99.0.2", 500),
    ];
    await d.setRoutes(want);
    await host([
      "10.50.0.0/24 via 10.99.0.2 dev d0 metric 100 proto 97 table 254",
      "10.51.0.5 via 10.99.0.3 dev d0 metric 0 proto 97 table 254",
      "default via 10.99.0.2 dev d0 metric 500 proto 97 table 254",
    ], "set");
    await reads(want, "set");

    // A changed gateway, a removed route, one destination with a second metric.
    want = [
      route("10.50.0.0/24", "10.99.0.7", 100),
      route("10.50.0.0/24", "10.99.0.2", 200),
      route("0.0.0.0/0", "10.99.0.2", 500),
    ];
    await d.setRoutes(want);
    await host([
      "10.50.0.0/24 via 10.99.0.2 dev d0 metric 200 proto 97 table 254",
      "10.50.0.0/24 via 10.99.0.7 dev d0 metric 100 proto 97 table 254",
      "default via 10.99.0.2 dev d0 metric 500 proto 97 table 254",
    ], "changed");
    await reads(want, "changed");

    await d.setRoutes([]);
    await host([], "emptied: only Palisade's routes went");
    await reads([], "emptied");
    if (!ns) return;

    // Same destination and metric as the administrator's static route: refused, not taken over.
    const taken = await assertRejects(
      () => d.setRoutes([route("10.53.0.0/16", "10.99.0.2", 0)]),
      HostError,
    );
    assertEquals(
      taken.message,
      `Cannot set route "10.53.0.0/16 via 10.99.0.2 dev d0 metric 0": the host already has a route to "10.53.0.0/16" with metric 0 that is not Palisade's (protocol "4")`,
    );
    await host([], "static route kept");

    // A route on a missing device fails with a clear message; the route beside it still goes on.
    const err = await assertRejects(
      () =>
        d.setRoutes([
          { ...route("10.60.0.0/24", "10.99.0.2", 5), device: "nosuch" },
          route("10.61.0.0/24", "10.99.0.2", 5),
        ]),
      HostError,
    );
    assertEquals(
      err.message,
      'Cannot set route "10.60.0.0/24 via 10.99.0.2 dev nosuch metric 5": Cannot find device "nosuch"',
    );
    await host(["10.61.0.0/24 via 10.99.0.2 dev d0 metric 5 proto 97 table 254"], "the good route");
  });

  Deno.test(`NetDriver contract (${subject.name}): setFirewall, readFirewall, drift by hand`, async () => {
    const s = await subject.make();
    if (!s) return;
    await using _ = s;
    const d = s.driver;
    const ns = s.ns;
    if (!ns) {
      await d.setFirewall(RULES);
      await d.setFirewall([]);
      return assertEquals(await d.readFirewall(), null);
    }
    const host = await firewallHost(ns);
    const drift = async () =>
      diffFirewall(RULES, (await d.readFirewall())!).map((i) => `${i.kind} ${i.rule_id} ${i.live}`);
    const full = { input: ["palisade:r1", "palisade:r3", "palisade:r4"], forward: ["palisade:r2"] };

    assertEquals(await drift(), ["firewall_table_missing null null"]);
    await d.setFirewall(RULES);
    await host(full, "set");
    assertEquals(await drift(), []);

    await editByHand(ns);
    assertEquals(await drift(), [
      "firewall_rule_unexpected null forward: tcp dport 9999 accept",
      'firewall_rule_changed r1 input: tcp dport 23 accept comment "palisade:r1"',
      "firewall_rule_missing r3 null",
    ]);

    await d.setFirewall(RULES);
    await host(full, "restored");
    assertEquals(await drift(), []);

    await d.setFirewall([]);
    await host({ input: [], forward: [] }, "emptied");
    assertEquals(diffFirewall([], (await d.readFirewall())!), []);
  });
}
