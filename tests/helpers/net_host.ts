/**
 * Routes and nftables state of a namespace as the host reports them, read
 * with `ip -j` and `nft -j` and parsed here, never by the driver under test.
 */
import { type Netns, netns } from "./netns.ts";

/** A namespace with a veth pair, `d0` at 10.99.0.1/24, so routes have a reachable gateway. */
export async function netnsWithLink(): Promise<Netns> {
  const ns = await netns("plnet");
  await ns.exec("ip", ["link", "add", "d0", "type", "veth", "peer", "name", "d1"]);
  await ns.exec("ip", ["addr", "add", "10.99.0.1/24", "dev", "d0"]);
  await ns.exec("ip", ["link", "set", "d0", "up"]);
  await ns.exec("ip", ["link", "set", "d1", "up"]);
  return ns;
}

interface IpRouteRow {
  dst: string;
  gateway?: string;
  dev?: string;
  metric?: number;
  protocol?: string;
  table?: string;
}

/**
 * Every IPv4 route of `ns` except the kernel's own (protocol 2), as
 * "<dst as ip prints it> via <gw> dev <dev> metric <m> proto <P> table <T>", sorted.
 */
export async function hostRoutes(ns: Netns): Promise<string[]> {
  const r = await ns.exec("ip", ["-4", "-N", "-j", "route", "show", "table", "all"]);
  return (JSON.parse(r.stdout) as IpRouteRow[])
    .filter((row) => row.protocol !== "2")
    .map((row) =>
      `${row.dst} via ${row.gateway} dev ${row.dev} metric ${
        row.metric ?? 0
      } proto ${row.protocol} table ${row.table ?? "254"}`
    )
    .sort();
}

export interface NftChain {
  name: string;
  type?: string;
  hook?: string;
  prio?: number;
  policy?: string;
}

export interface NftRule {
  chain: string;
  handle: number;
  comment?: string;
}

export interface NftTable {
  chains: NftChain[];
  rules: NftRule[];
  /** Every object of the table as `nft -j` gives it, for before/after comparisons. */
  raw: unknown[];
}

/** The tables of `ns` by "family name", from `nft -j list ruleset`. */
export async function hostTables(ns: Netns): Promise<Map<string, NftTable>> {
  const r = await ns.exec("nft", ["-j", "list", "ruleset"]);
  const out = new Map<string, NftTable>();
  const items = (JSON.parse(r.stdout) as { nftables: Record<string, Record<string, unknown>>[] })
    .nftables;
  for (const item of items) {
    const [kind, body] = Object.entries(item)[0];
    if (kind === "metainfo") continue;
    const key = kind === "table" ? `${body.family} ${body.name}` : `${body.family} ${body.table}`;
    if (!out.has(key)) out.set(key, { chains: [], rules: [], raw: [] });
    const t = out.get(key)!;
    t.raw.push(item);
    if (kind === "chain") {
      const { name, type, hook, prio, policy } = body as unknown as NftChain;
      t.chains.push({ name, type, hook, prio, policy });
    } else if (kind === "rule") {
      const rule: NftRule = { chain: body.chain as string, handle: body.handle as number };
      if (body.comment !== undefined) rule.comment = body.comment as string;
      t.rules.push(rule);
    }
  }
  return out;
}

/** The comments of a table's rules per chain, in listed order ("-" for a rule without one). */
export function commentsByChain(t: NftTable): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of t.chains) out[c.name] = [];
  for (const r of t.rules) out[r.chain].push(r.comment ?? "-");
  return out;
}

/**
 * The rule lines of `nft list table inet <name>` per chain, trimmed, without
 * the chain header: nft's own text of each rule.
 */
export async function listedRuleLines(ns: Netns, table: string): Promise<Record<string, string[]>> {
  const r = await ns.exec("nft", ["list", "table", "inet", table]);
  const out: Record<string, string[]> = {};
  let chain: string | null = null;
  for (const line of r.stdout.split("\n").map((l) => l.trim())) {
    const head = /^chain (\S+) \{$/.exec(line);
    if (head) {
      chain = head[1];
      out[chain] = [];
    } else if (line === "}") chain = null;
    else if (chain && line && !line.startsWith("type ")) out[chain].push(line);
  }
  return out;
}
