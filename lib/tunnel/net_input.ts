/**
 * Input checks shared by routes and firewall rules: canonical IPv4 blocks,
 * addresses and names. Malformed input is a ValidationError (400) naming the
 * field; a block written with host bits set is malformed too, and the
 * message gives its canonical form so the caller can send that instead.
 */
import { ValidationError } from "../errors.ts";
import { type Cidr, networkCidr, parseCidr, parseIpv4 } from "./ipv4.ts";

/** "a.b.c.d/p" with host bits zero, as stored and as the host lists it. */
export function checkCanonicalCidr(
  v: unknown,
  field: string,
  what: string,
): { text: string; cidr: Cidr } {
  const cidr = typeof v === "string" && !/\s/.test(v) ? parseCidr(v) : null;
  if (!cidr) {
    throw new ValidationError(
      `${what}: ${field} ${JSON.stringify(v)} is not an IPv4 CIDR such as "10.50.0.0/24"`,
      field,
    );
  }
  const canonical = networkCidr(cidr);
  if (canonical !== v) {
    throw new ValidationError(
      `${what}: ${field} ${JSON.stringify(v)} is not canonical; write it as "${canonical}"`,
      field,
    );
  }
  return { text: canonical, cidr };
}

/** A dotted-quad IPv4 address, as a number. */
export function checkIpv4(v: unknown, field: string, what: string): number {
  const ip = typeof v === "string" ? parseIpv4(v) : null;
  if (ip === null) {
    throw new ValidationError(
      `${what}: ${field} ${JSON.stringify(v)} is not an IPv4 address`,
      field,
    );
  }
  return ip;
}

/** An optional string id: undefined and null mean "none". */
export function optionalId(v: unknown, field: string, what: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") {
    throw new ValidationError(`${what}: ${field} must be a string or null`, field);
  }
  return v;
}
