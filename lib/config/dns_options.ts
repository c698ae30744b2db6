/**
 * The DNS listener's limits (docs/security.md). Over TCP (RFC 7766 §6.2.3
 * leaves them to the server; these follow NSD and Knot): a cap per client
 * address, a short wait for a connection's first query, an idle timeout
 * between queries, and a global cap at which the longest-idle connection
 * makes room for a new one. Over UDP: response rate limiting.
 */
import { ConfigError } from "../errors.ts";
import { integerOption, type Option } from "./option.ts";
import type { Config, DnsRrlSettings, DnsTcpLimits } from "./types.ts";

/** What each option says in `--help` and the README, by the variable's name after `PALISADE_DNS_`. */
const SAYS: Record<string, string> = {
  TCP_MAX:
    "Open DNS TCP connections at most; at the cap a new connection closes the longest-idle one",
  TCP_PER_ADDRESS:
    "Open DNS TCP connections of one client address at most; more are closed at once",
  TCP_FIRST_QUERY_MS: "How long a new DNS TCP connection may take to send its first complete query",
  TCP_IDLE_MS: "How long a DNS TCP connection may stay idle between queries",
  RRL:
    "Response rate limiting of UDP answers: `on`, `off`, or `auto` (on unless the DNS listener is bound to a loopback address)",
  RRL_RATE: "UDP answers per second to one source prefix before rate limiting",
  RRL_SLIP:
    "Every Nth rate-limited answer goes out truncated (the client retries over TCP); 0 drops them all",
  RRL_IPV4_PREFIX: "IPv4 source prefix length that shares one rate limit",
  RRL_IPV6_PREFIX: "IPv6 source prefix length that shares one rate limit",
};

type RrlNumber = Exclude<keyof DnsRrlSettings, "mode">;

function tcp(name: string, key: keyof DnsTcpLimits, byDefault: number, max: number, min = 1) {
  const set = (c: Config, n: number) => (c.dns.tcp[key] = n);
  return integerOption(`PALISADE_DNS_${name}`, byDefault, [min, max], SAYS[name], set);
}

function rrl(name: string, key: RrlNumber, byDefault: number, min: number, max: number) {
  const set = (c: Config, n: number) => (c.dns.rrl[key] = n);
  return integerOption(`PALISADE_DNS_${name}`, byDefault, [min, max], SAYS[name], set);
}

export const DNS_LIMIT_OPTIONS: Option[] = [
  tcp("TCP_MAX", "maxConnections", 128, 65_535),
  tcp("TCP_PER_ADDRESS", "perAddress", 8, 65_535),
  tcp("TCP_FIRST_QUERY_MS", "firstQueryMs", 2000, 120_000, 100),
  tcp("TCP_IDLE_MS", "idleMs", 10_000, 600_000, 100),
  {
    env: "PALISADE_DNS_RRL",
    flag: "--dns-rrl",
    default: "auto",
    description: SAYS.RRL,
    apply: (c, v, n) => {
      if (v !== "auto" && v !== "on" && v !== "off") {
        throw new ConfigError(n, `expected auto, on or off, got "${v}"`);
      }
      c.dns.rrl.mode = v;
    },
  },
  rrl("RRL_RATE", "rate", 200, 1, 1_000_000),
  rrl("RRL_SLIP", "slip", 2, 0, 100),
  rrl("RRL_IPV4_PREFIX", "ipv4Prefix", 24, 8, 32),
  rrl("RRL_IPV6_PREFIX", "ipv6Prefix", 56, 16, 128),
];
