/**
 * Palisade's nftables table as text: the renderer that writes it and the
 * parser that reads `nft list table` back. The renderer's rule text is
 * exactly nft's canonical listing of the rule (the system test in
 * `net_contract_test.ts` applies every shape we generate and compares), so
 * drift is judged by comparing strings, and a rule edited by hand differs.
 */
import { HostError } from "../errors.ts";
import type { CommandRunner } from "./command.ts";
import type {
  DesiredFirewallRule,
  FirewallDirection,
  LiveFirewall,
  LiveFirewallRule,
} from "./net_state.ts";

/** The base chains of Palisade's table, in the order they are created. */
export const FIREWALL_CHAINS: readonly FirewallDirection[] = ["input", "forward"];

/** A base chain's header as nft lists it (policy accept: Palisade's rules only add matches). */
export function chainSpec(chain: FirewallDirection): string {
  return `type filter hook ${chain} priority filter; policy accept;`;
}

/** The chain as `LiveFirewall.chains` lists it: "input: type filter hook input …". */
export function chainLine(chain: FirewallDirection): string {
  return `${chain}: ${chainSpec(chain)}`;
}

const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;
const CIDR_V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
const RULE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** nft identifiers; kept strict so a table name never needs quoting. */
export const NFT_TABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** nft lists a /32 prefix as the bare address. */
function sourceText(cidr: string): string {
  const m = CIDR_V4.exec(cidr);
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 32) {
    throw new HostError(`Firewall source "${cidr}" is not an IPv4 CIDR`);
  }
  return m[5] === "32" ? cidr.slice(0, cidr.indexOf("/")) : cidr;
}

/** The protocol and port match; empty for any protocol. */
function matchText(rule: DesiredFirewallRule): string[] {
  if (rule.protocol === "tcp" || rule.protocol === "udp") {
    if (rule.port !== null) {
      if (!Number.isInteger(rule.port) || rule.port < 1 || rule.port > 65535) {
        throw new HostError(`Firewall port "${rule.port}" is out of range`);
      }
      return [`${rule.protocol} dport ${rule.port}`];
    }
    return [`meta l4proto ${rule.protocol}`];
  }
  if (rule.port !== null) {
    throw new HostError(`Firewall protocol "${rule.protocol}" takes no port`);
  }
  return rule.protocol === "icmp" ? ["meta l4proto icmp"] : [];
}

/**
 * The verdict. nft lists a bare `reject` in an inet table as `reject` while
 * nothing fixes the address family, and as `reject with icmp
 * port-unreachable` once `ip saddr` has made the rule IPv4-only.
 */
function verdictText(rule: DesiredFirewallRule): string {
  if (rule.action !== "reject") return rule.action;
  if (rule.protocol === "tcp") return "reject with tcp reset";
  return rule.source !== null ? "reject with icmp port-unreachable" : "reject";
}

/**
 * One rule as nft lists it (without handle and counters), e.g.
 * `iifname "wg0" ip saddr 10.0.0.0/24 tcp dport 22 accept comment "palisade:<id>"`.
 */
export function firewallRuleText(rule: DesiredFirewallRule): string {
  if (!RULE_ID.test(rule.id)) throw new HostError(`Firewall rule id "${rule.id}" is not valid`);
  const parts: string[] = [];
  if (rule.iifname !== null) {
    if (!IFNAME.test(rule.iifname)) {
      throw new HostError(`Firewall interface "${rule.iifname}" is not an interface name`);
    }
    parts.push(`iifname "${rule.iifname}"`);
  }
  if (rule.source !== null) parts.push(`ip saddr ${sourceText(rule.source)}`);
  parts.push(...matchText(rule), verdictText(rule), `comment "palisade:${rule.id}"`);
  return parts.join(" ");
}

/** The rule qualified by its chain, "input: tcp dport 22 accept …": how drift shows it. */
export function firewallRuleLine(rule: DesiredFirewallRule): string {
  return `${rule.direction}: ${firewallRuleText(rule)}`;
}

/**
 * The `nft -f -` script replacing table `inet <name>` with exactly `rules`, in
 * one transaction: the first line creates the table when absent so the delete
 * cannot fail, the delete drops everything in it (hand-made chains, rules and
 * sets included), and the block defines it anew.
 */
export function renderFirewallScript(name: string, rules: DesiredFirewallRule[]): string {
  if (!NFT_TABLE_NAME.test(name)) throw new HostError(`Table name "${name}" is not valid`);
  const out = [`table inet ${name}`, `delete table inet ${name}`, `table inet ${name} {`];
  for (const chain of FIREWALL_CHAINS) {
    out.push(`\tchain ${chain} {`, `\t\t${chainSpec(chain)}`);
    for (const r of rules) if (r.direction === chain) out.push(`\t\t${firewallRuleText(r)}`);
    out.push("\t}");
  }
  out.push("}", "");
  return out.join("\n");
}

/** `{` minus `}` outside double quotes. */
function braceDelta(line: string): number {
  let d = 0, quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "{") d++;
    else if (!quoted && ch === "}") d--;
  }
  return d;
}

const COMMENT_ID = /(?:^| )comment "palisade:([^"]*)"$/;
const CHAIN_HEAD = /^(type|policy|comment|devices) /;

/**
 * Parses `nft -s list table inet <name>`: each chain with its header, each
 * rule with its text. Sets, maps and other objects someone added are skipped
 * (the next replace removes them with the table).
 */
export function parseNftTable(text: string): LiveFirewall {
  const chains: string[] = [];
  const rules: LiveFirewallRule[] = [];
  let depth = 0;
  let chain: { name: string; head: string[]; rules: number } | null = null;
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const before = depth;
    depth += braceDelta(line);
    if (chain && before === 2) {
      if (depth < 2) {
        chains.push(`${chain.name}: ${chain.head.join(" ")}`.trimEnd());
        chain = null;
      } else if (!pending && !chain.rules && CHAIN_HEAD.test(line)) {
        chain.head.push(line);
      } else if (depth > 2) {
        pending = line; // a rule broken over lines: joined until its braces close
      } else {
        chain.rules++;
        rules.push(liveRule(chain.name, line));
      }
    } else if (chain && pending) {
      pending += ` ${line}`;
      if (depth === 2) {
        chain.rules++;
        rules.push(liveRule(chain.name, pending));
        pending = "";
      }
    } else if (before === 1 && depth === 2) {
      const m = /^chain (\S+) \{$/.exec(line);
      if (m) chain = { name: m[1], head: [], rules: 0 };
    }
  }
  return { present: true, chains, rules };
}

function liveRule(chain: string, text: string): LiveFirewallRule {
  return { chain, id: COMMENT_ID.exec(text)?.[1] ?? null, text };
}

/** Palisade's table as the host has it (`present: false` when it does not exist). */
export async function readNftTable(run: CommandRunner, name: string): Promise<LiveFirewall> {
  const r = await run("nft", ["-s", "list", "table", "inet", name], { allowFail: true });
  if (r.code !== 0) {
    if (/No such file or directory/.test(r.stderr)) {
      return { present: false, chains: [], rules: [] };
    }
    throw new HostError(
      `Cannot read nftables table "inet ${name}": ${r.stderr.trim().split("\n")[0]}`,
      r.stderr,
    );
  }
  return parseNftTable(r.stdout);
}

/** Replaces the table in one `nft -f -` transaction; nothing changes when it fails. */
export async function replaceNftTable(
  run: CommandRunner,
  name: string,
  rules: DesiredFirewallRule[],
): Promise<void> {
  const script = renderFirewallScript(name, rules);
  const r = await run("nft", ["-f", "-"], { stdin: script, allowFail: true });
  if (r.code !== 0) {
    const why = r.stderr.trim().split("\n").find((l) => l.startsWith("Error:")) ??
      r.stderr.trim().split("\n")[0];
    throw new HostError(`Cannot apply nftables table "inet ${name}": ${why}`, r.stderr);
  }
}
