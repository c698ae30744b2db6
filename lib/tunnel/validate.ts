/**
 * Domain checks shared by the tunnel services. Malformed input (wrong shape,
 * bad name, unparsable address) is a ValidationError (400); well-formed values
 * out of their allowed range (ports, MTU, keepalive) are UnprocessableError
 * (422), as the spec's error table says for "a port out of bounds".
 */
import { hostKind } from "../net/host.ts";
import { UnprocessableError, ValidationError } from "../errors.ts";
import { type Cidr, isHostAddress, parseCidr, parseCidrList } from "./ipv4.ts";

export const INTERFACE_NAME = /^[a-z0-9_-]{1,15}$/;
/**
 * Peer names reach config comments, file names and QR codes: no line breaks or
 * quotes, and ASCII only because QR scanners guess the charset of byte-mode data.
 */
export const PEER_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._@+-]{0,63}$/;
export const MTU_MIN = 1280;
export const MTU_MAX = 9000;
export const PORT_MIN = 1;
export const PORT_MAX = 65535;
export const KEEPALIVE_MAX = 65535;
export const PROFILES = ["full-tunnel", "split-tunnel"] as const;
export type RoutingProfile = (typeof PROFILES)[number];

function integer(v: unknown, field: string, what: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new ValidationError(`${what}: ${field} must be an integer`, field);
  }
  return v;
}

/** Interface name per [a-z0-9_-]{1,15}. */
export function checkInterfaceName(name: unknown, what: string): string {
  if (typeof name !== "string" || !INTERFACE_NAME.test(name)) {
    throw new ValidationError(
      `${what}: name ${JSON.stringify(name)} must be 1 to 15 of a-z, 0-9, "_" and "-"`,
      "name",
    );
  }
  return name;
}

/** An IPv4 interface address with prefix whose host part is usable. */
export function checkInterfaceAddress(
  address: unknown,
  what: string,
): { text: string; cidr: Cidr } {
  const cidr = typeof address === "string" ? parseCidr(address) : null;
  if (!cidr) {
    throw new ValidationError(
      `${what}: address_v4 ${JSON.stringify(address)} is not an IPv4 CIDR`,
      "address_v4",
    );
  }
  if (cidr.prefix > 30 || !isHostAddress(cidr, cidr.address)) {
    throw new UnprocessableError(
      `${what}: address_v4 ${address} must be a host address in a block of /30 or larger`,
      "address_v4",
    );
  }
  return { text: `${(address as string).trim()}`, cidr };
}

/** A UDP port 1–65535. */
export function checkPort(port: unknown, what: string): number {
  const n = integer(port, "listen_port", what);
  if (n < PORT_MIN || n > PORT_MAX) {
    throw new UnprocessableError(
      `${what}: listen_port ${n} is outside ${PORT_MIN}-${PORT_MAX}`,
      "listen_port",
    );
  }
  return n;
}

/** An MTU within 1280–9000. */
export function checkMtu(mtu: unknown, what: string): number {
  const n = integer(mtu, "mtu", what);
  if (n < MTU_MIN || n > MTU_MAX) {
    throw new UnprocessableError(`${what}: mtu ${n} is outside ${MTU_MIN}-${MTU_MAX}`, "mtu");
  }
  return n;
}

/** Persistent keepalive seconds, 0 (off) to 65535. */
export function checkKeepalive(v: unknown, what: string): number {
  const n = integer(v, "keepalive", what);
  if (n < 0 || n > KEEPALIVE_MAX) {
    throw new UnprocessableError(
      `${what}: keepalive ${n} is outside 0-${KEEPALIVE_MAX}`,
      "keepalive",
    );
  }
  return n;
}

export function checkPeerName(name: unknown, what: string): string {
  if (typeof name !== "string" || !PEER_NAME.test(name)) {
    throw new ValidationError(
      `${what}: name ${
        JSON.stringify(name)
      } must be 1 to 64 ASCII letters, digits, spaces or ._@+- starting with a letter or digit`,
      "name",
    );
  }
  return name;
}

export function checkProfile(p: unknown, what: string): RoutingProfile {
  if (!PROFILES.includes(p as RoutingProfile)) {
    throw new ValidationError(
      `${what}: profile ${JSON.stringify(p)} must be one of ${PROFILES.join(", ")}`,
      "profile",
    );
  }
  return p as RoutingProfile;
}

/** Comma-separated CIDRs, normalized. */
export function checkAllowedIps(v: unknown, what: string): string {
  if (typeof v !== "string") {
    throw new ValidationError(`${what}: allowed_ips must be a string`, "allowed_ips");
  }
  try {
    const list = parseCidrList(v);
    if (!list.length) throw new Error("empty");
    return list.join(", ");
  } catch (err) {
    throw new ValidationError(
      `${what}: allowed_ips entry ${JSON.stringify((err as Error).message)} is not a CIDR`,
      "allowed_ips",
    );
  }
}

/** DNS servers and search domains for wg-quick's DNS line, normalized to "a, b". */
export function checkDns(v: unknown, what: string): string {
  if (typeof v !== "string") throw new ValidationError(`${what}: dns must be a string`, "dns");
  const items = v.split(",").map((s) => s.trim()).filter(Boolean);
  for (const item of items) {
    const ok = hostKind(item) !== null;
    if (!ok) {
      throw new ValidationError(
        `${what}: dns entry ${JSON.stringify(item)} is not an address or domain`,
        "dns",
      );
    }
  }
  return items.join(", ");
}
