/**
 * IPv4 and IPv6 addresses in presentation and on the wire, shared by A, AAAA
 * and the SVCB/HTTPS address hints.
 */
import { wireOf } from "./rdata_parser.ts";

/** The four bytes of a dotted quad (leading zeros allowed), or null. */
export function ipv4Bytes(text: string): Uint8Array | null {
  const m = /^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$/.exec(text);
  const parts = m?.slice(1).map(Number);
  if (!parts || parts.some((n) => n > 255)) return null;
  return new Uint8Array(parts);
}

/** RFC 5952 text of an IPv6 address (no zone index), or null. */
export function ipv6Canonical(text: string): string | null {
  if (!text.includes(":") || /[^0-9a-fA-F:.]/.test(text)) return null;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The sixteen bytes of an RFC 5952 address. */
export function ipv6Bytes(canonical: string): Uint8Array {
  return wireOf("AAAA", canonical);
}

/** RFC 5952 text of sixteen bytes. */
export function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return ipv6Canonical(groups.join(":"))!;
}
