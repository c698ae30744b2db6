/**
 * What a network is: a name and a canonical IPv4 block of /8 to /30, not
 * overlapping any other network. Malformed input is a ValidationError (400)
 * naming the field; an overlap is a ConflictError (409) naming the network
 * it overlaps.
 */
import { ConflictError, ValidationError } from "../../errors.ts";
import { type Cidr, networkCidr, overlaps, parseCidr } from "../ipv4.ts";
import type { NetworkRow } from "./network_repo.ts";

/** Network names: letters, digits, ".", "_" and "-", 1 to 64 of them. */
export const NETWORK_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/**
 * Prefix bounds of POST /networks: a /8 is the largest private block, and
 * below /30 nothing is left to hand out once network and broadcast
 * addresses are set aside.
 */
export const NETWORK_PREFIX_MIN = 8;
export const NETWORK_PREFIX_MAX = 30;

/** A network name per NETWORK_NAME (400 naming `name`). */
export function checkNetworkName(name: unknown, what: string): string {
  if (typeof name !== "string" || !NETWORK_NAME.test(name)) {
    throw new ValidationError(
      `${what}: name ${JSON.stringify(name)} must be 1 to 64 letters, digits, ".", "_" or "-"`,
      "name",
    );
  }
  return name;
}

/**
 * A canonical IPv4 block of /8 to /30 (400 naming `cidr`). A block written
 * with host bits set is refused rather than silently rounded down, and the
 * message gives the canonical form, so the caller never gets a network
 * other than the one they think they asked for.
 */
export function checkNetworkCidr(cidr: unknown, what: string): { text: string; cidr: Cidr } {
  const c = typeof cidr === "string" ? parseCidr(cidr) : null;
  if (!c || (cidr as string).trim() !== cidr) {
    throw new ValidationError(
      `${what}: cidr ${JSON.stringify(cidr)} is not an IPv4 CIDR such as "10.20.0.0/16"`,
      "cidr",
    );
  }
  if (c.prefix < NETWORK_PREFIX_MIN || c.prefix > NETWORK_PREFIX_MAX) {
    throw new ValidationError(
      `${what}: cidr ${cidr} must have a prefix from /${NETWORK_PREFIX_MIN} to /${NETWORK_PREFIX_MAX}`,
      "cidr",
    );
  }
  const canonical = networkCidr(c);
  if (canonical !== cidr) {
    throw new ValidationError(
      `${what}: cidr ${cidr} is not canonical (host bits set): write "${canonical}"`,
      "cidr",
    );
  }
  return { text: canonical, cidr: c };
}

/** The first network (other than `exceptId`) whose block shares an address with `cidr`. */
export function overlapping(
  networks: readonly NetworkRow[],
  cidr: Cidr,
  exceptId: string | null = null,
): NetworkRow | undefined {
  return networks.find((n) => n.id !== exceptId && overlaps(cidr, parseCidr(n.cidr)!));
}

/** ConflictError (409) naming the network `cidr` overlaps, with `field` at fault. */
export function overlapError(
  what: string,
  field: string,
  text: string,
  other: NetworkRow,
): ConflictError {
  return new ConflictError(
    `${what}: ${field} ${text} overlaps network "${other.name}" (${other.cidr})`,
    { field, code: "overlapping_network" },
  );
}

/**
 * Usable host addresses of a block: all but the network and broadcast
 * addresses (/31 and /32 have neither, as in ipv4.ts's isHostAddress).
 */
export function networkSize(prefix: number): number {
  const all = 2 ** (32 - prefix);
  return prefix >= 31 ? all : all - 2;
}
