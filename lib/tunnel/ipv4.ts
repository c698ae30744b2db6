/**
 * IPv4 arithmetic for interface subnets and peer address allocation. Addresses
 * are unsigned 32-bit numbers internally so that allocation over a /16 with
 * ten thousand peers stays a set lookup per candidate.
 */

export interface Cidr {
  /** The address as written (host part kept), e.g. 10.8.0.1. */
  address: number;
  prefix: number;
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Parses a dotted quad; null when malformed. */
export function parseIpv4(s: string): number | null {
  const parts = s.split(".");
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p))) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Dotted quad of a 32-bit number. */
export function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Parses "a.b.c.d/p"; null when malformed. */
export function parseCidr(s: string): Cidr | null {
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(s.trim());
  if (!m) return null;
  const address = parseIpv4(m[1]);
  const prefix = Number(m[2]);
  if (address === null || prefix > 32) return null;
  return { address, prefix };
}

/** The netmask of a prefix length as a 32-bit number. */
export function netmask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** First and last address of the block `c` lies in. */
export function range(c: Cidr): { network: number; broadcast: number } {
  const mask = netmask(c.prefix);
  const network = (c.address & mask) >>> 0;
  return { network, broadcast: (network | (~mask >>> 0)) >>> 0 };
}

/** "network/prefix" of the block, e.g. 10.8.0.0/24. */
export function networkCidr(c: Cidr): string {
  return `${formatIpv4(range(c).network)}/${c.prefix}`;
}

/** True when `ip` lies inside the block of `c`. */
export function contains(c: Cidr, ip: number): boolean {
  const { network, broadcast } = range(c);
  return ip >= network && ip <= broadcast;
}

/** True when the blocks of `a` and `b` share an address. */
export function overlaps(a: Cidr, b: Cidr): boolean {
  const ra = range(a), rb = range(b);
  return ra.network <= rb.broadcast && rb.network <= ra.broadcast;
}

/**
 * True when `ip` may be given to a host of block `c`: /31 and /32 have no
 * network or broadcast address to avoid, larger blocks do.
 */
export function isHostAddress(c: Cidr, ip: number): boolean {
  if (!contains(c, ip)) return false;
  if (c.prefix >= 31) return true;
  const { network, broadcast } = range(c);
  return ip !== network && ip !== broadcast;
}

/** The lowest host address of `c` not in `used`, or null when the block is full. */
export function firstFree(c: Cidr, used: Set<number>): number | null {
  const { network, broadcast } = range(c);
  const lo = c.prefix >= 31 ? network : network + 1;
  const hi = c.prefix >= 31 ? broadcast : broadcast - 1;
  for (let ip = lo; ip <= hi; ip++) {
    if (!used.has(ip)) return ip;
  }
  return null;
}

/** Normalizes a comma-separated list of IPv4/IPv6 CIDRs; throws on a malformed entry. */
export function parseCidrList(s: string): string[] {
  const out: string[] = [];
  for (const raw of s.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    if (item.includes(":")) {
      // IPv6 is passed through for client AllowedIPs (e.g. ::/0); the shape is checked loosely.
      if (!/^[0-9a-fA-F:]+\/\d{1,3}$/.test(item) || Number(item.split("/")[1]) > 128) {
        throw new Error(item);
      }
      out.push(item.toLowerCase());
      continue;
    }
    const c = parseCidr(item.includes("/") ? item : `${item}/32`);
    if (!c) throw new Error(item);
    out.push(`${formatIpv4(c.address)}/${c.prefix}`);
  }
  return out;
}
