/**
 * The DNS listener's TCP limits (RFC 7766 §6.2.3 leaves them to the server;
 * these follow NSD and Knot): a cap per client address, a short wait for a
 * connection's first query, an idle timeout between queries, and a global
 * cap at which the longest-idle connection makes room for a new one.
 */
import type { Option } from "./options.ts";
import { parseInteger } from "./values.ts";

export const DNS_TCP_OPTIONS: Option[] = [
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
];
