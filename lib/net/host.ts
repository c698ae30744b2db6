/**
 * What counts as a host that WireGuard clients can dial, in one place: the
 * `wireguard.server_host` setting, the `endpoint` query of client
 * configurations and the DNS entries of peers all accept exactly this.
 */

/** A DNS host name: labels of letters, digits and inner hyphens, 253 characters at most. */
const HOSTNAME =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export type HostKind = "name" | "ipv4" | "ipv6";

/** True for an IPv6 address in hex-and-colons form (no embedded IPv4, no zone). */
export function isIpv6(v: string): boolean {
  if (!/^[0-9a-fA-F:]+$/.test(v) || !v.includes(":")) return false;
  try {
    return new URL(`http://[${v}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/**
 * The kind of `value` when it is a host name or an address, else null. A
 * trailing dot is not accepted: clients' resolvers treat it inconsistently.
 */
export function hostKind(value: string): HostKind | null {
  if (IPV4.test(value)) return "ipv4";
  if (isIpv6(value)) return "ipv6";
  if (HOSTNAME.test(value)) return "name";
  return null;
}
