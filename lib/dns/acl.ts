/**
 * Address lists for zone transfers (PALISADE_DNS_AXFR_ALLOW): IPv4 and IPv6
 * addresses and CIDR prefixes. IPv4-mapped IPv6 peers match IPv4 entries.
 */
import { ConfigError } from "../errors.ts";

/** The bytes of an IPv4 or IPv6 address, or null when `text` is neither. */
export function ipBytes(text: string): Uint8Array | null {
  const t = text.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(t);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    return parts.some((n) => n > 255) ? null : new Uint8Array(parts);
  }
  if (!t.includes(":")) return null;
  let head = t;
  let tail4: number[] = [];
  const embedded = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(t);
  if (embedded) {
    const b = ipBytes(embedded[2]);
    if (!b) return null;
    tail4 = [(b[0] << 8) | b[1], (b[2] << 8) | b[3]];
    head = embedded[1].endsWith("::") ? embedded[1] : embedded[1].slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const group = (s: string) => (s === "" ? [] : s.split(":"));
  const left = group(halves[0]);
  const right = halves.length === 2 ? group(halves[1]) : [];
  const words: number[] = [];
  for (const g of [...left, ...right]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
  }
  const missing = 8 - left.length - right.length - tail4.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  words.push(...left.map((g) => parseInt(g, 16)));
  for (let i = 0; i < (halves.length === 2 ? missing : 0); i++) words.push(0);
  words.push(...right.map((g) => parseInt(g, 16)), ...tail4);
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 255;
  });
  return out;
}

interface Prefix {
  bytes: Uint8Array;
  bits: number;
}

function unmap(b: Uint8Array): Uint8Array {
  // ::ffff:a.b.c.d is the IPv4 peer a.b.c.d on a dual-stack socket.
  if (
    b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255
  ) {
    return b.subarray(12);
  }
  return b;
}

function matches(p: Prefix, addr: Uint8Array): boolean {
  if (p.bytes.length !== addr.length) return false;
  let bits = p.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((p.bytes[i] & mask) !== (addr[i] & mask)) return false;
  }
  return true;
}

/** A matcher for `entries` ("192.0.2.1", "10.0.0.0/8", "::1", "2001:db8::/32"); throws ConfigError naming `variable`. */
export function parseAcl(
  entries: string[],
  variable = "PALISADE_DNS_AXFR_ALLOW",
): (ip: string) => boolean {
  const prefixes: Prefix[] = entries.map((e) => e.trim()).filter((e) => e !== "").map((entry) => {
    const [addr, len, extra] = entry.split("/");
    const bytes = ipBytes(addr);
    const max = bytes ? bytes.length * 8 : 0;
    const bits = len === undefined ? max : Number(len);
    if (
      !bytes || extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > max ||
      len === ""
    ) {
      throw new ConfigError(variable, `"${entry}" is not an IP address or CIDR prefix`);
    }
    return {
      bytes: unmap(bytes),
      bits: bytes.length === 16 && unmap(bytes).length === 4 ? Math.max(0, bits - 96) : bits,
    };
  });
  return (ip: string) => {
    const b = ipBytes(ip);
    if (!b) return false;
    const addr = unmap(b);
    return prefixes.some((p) => matches(p, addr));
  };
}
