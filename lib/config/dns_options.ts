/**
 * The DNS listener's limits (docs/security.md). Over TCP (RFC 7766 §6.2.3
 * leaves them to the server; these follow NSD and Knot): a cap per client
 * address, a short wait for a connection's first query, an idle timeout
 * between queries, and a global cap at which the longest-idle connection
 * makes room for a new one. Over UDP: response rate limiting.
 */
import { ConfigError } from "../errors.ts";
import type { Option } from "./options.ts";
import { parseInteger } from "./values.ts";

export const DNS_LIMIT_OPTIONS: Option[] = [
  {
    env: "PALISADE_DNS_TCP_MAX",
    flag: "--dns-tcp-max",
    default: "128",
    description:
      "Open DNS TCP connections at most; at the cap a new connection closes the longest-idle one",
    apply: (c, v, n) => (c.dns.tcp.maxConnections = parseInteger(v, n, 1, 65_535)),
  },
  {
    env: "PALISADE_DNS_TCP_PER_ADDRESS",
    flag: "--dns-tcp-per-address",
    default: "8",
    description: "Open DNS TCP connections of one client address at most; more are closed at once",
    apply: (c, v, n) => (c.dns.tcp.perAddress = parseInteger(v, n, 1, 65_535)),
  },
  {
    env: "PALISADE_DNS_TCP_FIRST_QUERY_MS",
    flag: "--dns-tcp-first-query-ms",
    default: "2000",
    description: "How long a new DNS TCP connection may take to send its first complete query",
    apply: (c, v, n) => (c.dns.tcp.firstQueryMs = parseInteger(v, n, 100, 120_000)),
  },
  {
    env: "PALISADE_DNS_TCP_IDLE_MS",
    flag: "--dns-tcp-idle-ms",
    default: "10000",
    description: "How long a DNS TCP connection may stay idle between queries",
    apply: (c, v, n) => (c.dns.tcp.idleMs = parseInteger(v, n, 100, 600_000)),
  },
  {
    env: "PALISADE_DNS_RRL",
    flag: "--dns-rrl",
    default: "auto",
    description:
      "Response rate limiting of UDP answers: `on`, `off`, or `auto` (on unless the DNS listener is bound to a loopback address)",
    apply: (c, v, n) => {
      if (v !== "auto" && v !== "on" && v !== "off") {
        throw new ConfigError(n, `expected auto, on or off, got "${v}"`);
      }
      c.dns.rrl.mode = v;
    },
  },
  {
    env: "PALISADE_DNS_RRL_RATE",
    flag: "--dns-rrl-rate",
    default: "200",
    description: "UDP answers per second to one source prefix before rate limiting",
    apply: (c, v, n) => (c.dns.rrl.rate = parseInteger(v, n, 1, 1_000_000)),
  },
  {
    env: "PALISADE_DNS_RRL_SLIP",
    flag: "--dns-rrl-slip",
    default: "2",
    description:
      "Every Nth rate-limited answer goes out truncated (the client retries over TCP); 0 drops them all",
    apply: (c, v, n) => (c.dns.rrl.slip = parseInteger(v, n, 0, 100)),
  },
  {
    env: "PALISADE_DNS_RRL_IPV4_PREFIX",
    flag: "--dns-rrl-ipv4-prefix",
    default: "24",
    description: "IPv4 source prefix length that shares one rate limit",
    apply: (c, v, n) => (c.dns.rrl.ipv4Prefix = parseInteger(v, n, 8, 32)),
  },
  {
    env: "PALISADE_DNS_RRL_IPV6_PREFIX",
    flag: "--dns-rrl-ipv6-prefix",
    default: "56",
    description: "IPv6 source prefix length that shares one rate limit",
    apply: (c, v, n) => (c.dns.rrl.ipv6Prefix = parseInteger(v, n, 16, 128)),
  },
];
