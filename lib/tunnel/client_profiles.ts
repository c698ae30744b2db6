/**
 * Client transport profiles: the MTU and persistent keepalive a client should
 * use for its kind of device and the network it connects from. Every figure
 * comes from a rule listed in `rules`, so an operator can see why.
 *
 * MTU = underlay MTU − WireGuard overhead. Overhead is 32 bytes of WireGuard
 * framing + 8 UDP + 20 (IPv4) or 40 (IPv6) IP header: 60 or 80 bytes.
 */
import { ValidationError } from "../errors.ts";

export const DEVICES = ["desktop", "mobile", "router"] as const;
export const CONNECTIONS = ["ipv4", "ipv6", "pppoe", "cellular", "restrictive-nat"] as const;
export type Device = (typeof DEVICES)[number];
export type Connection = (typeof CONNECTIONS)[number];

export interface ClientProfile {
  /** "<device>/<connection>", e.g. "mobile/cellular". */
  id: string;
  device: Device;
  connection: Connection;
  mtu: number;
  /** Seconds; 0 means off (the config then has no PersistentKeepalive line). */
  keepalive: number;
  description: string;
  /** The rules that produced `mtu` and `keepalive`, in order. */
  rules: string[];
}

interface ConnectionRule {
  description: string;
  mtu: number;
  mtuRule: string;
  keepalive: number;
  keepaliveRule: string;
}

const CONNECTION_RULES: Record<Connection, ConnectionRule> = {
  ipv4: {
    description: "IPv4 underlay, typically behind a home router's NAT",
    mtu: 1440,
    mtuRule: "ipv4: 1500 link MTU − 60 (IPv4 20 + UDP 8 + WireGuard 32) = 1440",
    keepalive: 25,
    keepaliveRule: "ipv4: NAT mappings for UDP expire after 30 s or more; 25 s keeps them open",
  },
  ipv6: {
    description: "Native IPv6 underlay without NAT",
    mtu: 1420,
    mtuRule: "ipv6: 1500 link MTU − 80 (IPv6 40 + UDP 8 + WireGuard 32) = 1420",
    keepalive: 0,
    keepaliveRule: "ipv6: no NAT mapping to keep open, keepalive off",
  },
  pppoe: {
    description: "DSL or fibre with PPPoE (1492 link MTU), IPv4 or IPv6",
    mtu: 1412,
    mtuRule:
      "pppoe: 1492 link MTU (PPPoE takes 8) − 80 (IPv6 underlay, the larger overhead) = 1412",
    keepalive: 25,
    keepaliveRule: "pppoe: the router NATs IPv4; 25 s keeps the mapping open",
  },
  cellular: {
    description: "Mobile carrier network (carrier-grade NAT, GTP tunnels, 464XLAT)",
    mtu: 1280,
    mtuRule:
      "cellular: carrier tunnels and 464XLAT shrink the path unpredictably; 1280 is the IPv6 minimum every path carries",
    keepalive: 25,
    keepaliveRule: "cellular: carrier-grade NAT drops idle UDP mappings; 25 s keeps them open",
  },
  "restrictive-nat": {
    description: "Hotel, corporate or public networks with aggressive NAT and unknown middleboxes",
    mtu: 1380,
    mtuRule: "restrictive-nat: unknown encapsulation on the path; 1420 − 40 bytes headroom = 1380",
    keepalive: 15,
    keepaliveRule: "restrictive-nat: mappings may expire after 30 s; 15 s keeps them open",
  },
};

function build(device: Device, connection: Connection): ClientProfile {
  const c = CONNECTION_RULES[connection];
  let mtu = c.mtu;
  let keepalive = c.keepalive;
  const rules = [c.mtuRule, c.keepaliveRule];
  if (device === "mobile" && mtu > 1420) {
    mtu = 1420;
    rules.push("mobile: roams between IPv4 and IPv6 Wi-Fi with one config; MTU capped at 1420");
  }
  if (device === "router" && keepalive < 25) {
    keepalive = 25;
    rules.push(
      "router: a site must stay reachable from the server side, and CPE firewalls drop unsolicited inbound UDP; keepalive at least 25 s",
    );
  }
  return {
    id: `${device}/${connection}`,
    device,
    connection,
    mtu,
    keepalive,
    description: `${device} on ${c.description}`,
    rules,
  };
}

/** Every device × connection profile, in a stable order. */
export function clientProfiles(): ClientProfile[] {
  return DEVICES.flatMap((d) => CONNECTIONS.map((c) => build(d, c)));
}

/**
 * The profile for `device` and `connection` (defaults desktop and ipv4);
 * ValidationError (400) for an unknown value.
 */
export function resolveClientProfile(device?: string, connection?: string): ClientProfile {
  const d = device ?? "desktop";
  const c = connection ?? "ipv4";
  if (!DEVICES.includes(d as Device)) {
    throw new ValidationError(
      `Unknown device ${JSON.stringify(d)}: use one of ${DEVICES.join(", ")}`,
      "device",
    );
  }
  if (!CONNECTIONS.includes(c as Connection)) {
    throw new ValidationError(
      `Unknown connection ${JSON.stringify(c)}: use one of ${CONNECTIONS.join(", ")}`,
      "connection",
    );
  }
  return build(d as Device, c as Connection);
}
