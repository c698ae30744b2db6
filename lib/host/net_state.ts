/**
 * What the host driver applies besides WireGuard devices: routes under
 * Palisade's route protocol tag and firewall rules in Palisade's own
 * nftables table. The store holds the desired lists; a driver converges the
 * host to them and reads back only what is Palisade's, never other routes or
 * other tables (docs/tunnels.md, "Networks, routes, firewall").
 */

/** A route as the store wants it on the host. */
export interface DesiredRoute {
  /** Canonical IPv4 block, host bits zero, e.g. "10.50.0.0/24". */
  destination: string;
  /** Next hop, e.g. "10.99.0.2". */
  gateway: string;
  /** 0-4294967295. */
  metric: number;
  /** The device the gateway is reached through (a managed interface's name). */
  device: string;
}

/** A route read from the host under Palisade's table and protocol tag. */
export type LiveRoute = DesiredRoute;

export type FirewallProtocol = "tcp" | "udp" | "icmp" | "any";
export type FirewallAction = "accept" | "drop" | "reject";
export type FirewallDirection = "input" | "forward";

/** One enabled firewall rule as the store wants it, in evaluation order. */
export interface DesiredFirewallRule {
  /** The stored rule's id: the nft rule's comment is "palisade:<id>". */
  id: string;
  protocol: FirewallProtocol;
  /** Destination port; only for tcp and udp, null for any port. */
  port: number | null;
  action: FirewallAction;
  /** The base chain: traffic to this host (input) or through it (forward). */
  direction: FirewallDirection;
  /** Incoming interface name to match; null for any. */
  iifname: string | null;
  /** Source block to match (canonical IPv4 CIDR); null for any. */
  source: string | null;
}

/** One rule read from Palisade's table. */
export interface LiveFirewallRule {
  chain: string;
  /** The stored rule's id from its comment; null for a rule Palisade did not write. */
  id: string | null;
  /** The rule as nft lists it, without handle and counters: what drift is judged on. */
  text: string;
}

/** Palisade's nftables table as read from the host. */
export interface LiveFirewall {
  /** False when the table does not exist. */
  present: boolean;
  /** Base chains with their hook and policy as listed, e.g. "input: type filter hook input priority filter; policy accept;". */
  chains: string[];
  rules: LiveFirewallRule[];
}

/** Route and firewall operations every host driver implements (part of HostDriver). */
export interface NetDriver {
  /** Palisade's routes on the host; null when the driver is inactive. */
  readRoutes(): Promise<LiveRoute[] | null>;
  /**
   * Makes Palisade's routes exactly `desired`: adds or replaces the missing
   * and changed ones, deletes its others. Routes of other protocols and
   * tables are never touched.
   */
  setRoutes(desired: DesiredRoute[]): Promise<void>;
  /** Palisade's table; null when the driver is inactive. */
  readFirewall(): Promise<LiveFirewall | null>;
  /** Replaces Palisade's table with exactly these rules in one atomic nft transaction. */
  setFirewall(rules: DesiredFirewallRule[]): Promise<void>;
}
