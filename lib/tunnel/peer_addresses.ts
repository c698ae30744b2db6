/**
 * Peer address allocation: an explicit address is checked against the
 * interface's block and its peers, an absent one becomes the lowest free
 * host address. Addresses are numbers so that a /16 with ten thousand peers
 * costs one set lookup per candidate.
 */
import { ConflictError, UnprocessableError, ValidationError } from "../errors.ts";
import type { InterfaceRow } from "./interface_repo.ts";
import { type Cidr, firstFree, formatIpv4, isHostAddress, parseCidr, parseIpv4 } from "./ipv4.ts";
import type { PeerRepo } from "./peer_repo.ts";

/** What an interface's peers already hold: addresses (with the interface's own) and names. */
export interface Taken {
  addresses: Set<number>;
  names: Set<string>;
}

/** Addresses and names in use on an interface, from one read. */
export async function takenOn(repo: PeerRepo, iface: InterfaceRow): Promise<Taken> {
  const addresses = new Set<number>([parseCidr(iface.address_v4)!.address]);
  const names = new Set<string>();
  for (const r of await repo.namesAndAddresses(iface.id)) {
    addresses.add(parseIpv4(r.address)!);
    names.add(r.name);
  }
  return { addresses, names };
}

/** Checks an explicit address or allocates the lowest free one; records it in `used`. */
export function assignAddress(
  requested: string | undefined,
  cidr: Cidr,
  used: Set<number>,
  iface: InterfaceRow,
  what: string,
): string {
  if (requested !== undefined) {
    const ip = typeof requested === "string" ? parseIpv4(requested.trim()) : null;
    if (ip === null) {
      throw new ValidationError(
        `${what}: address ${JSON.stringify(requested)} is not an IPv4 address`,
        "address",
      );
    }
    if (!isHostAddress(cidr, ip)) {
      throw new UnprocessableError(
        `${what}: address ${requested} is not a host address of ${iface.address_v4}`,
        "address",
      );
    }
    if (used.has(ip)) {
      throw new ConflictError(
        `${what}: address ${requested} is already used on "${iface.name}"`,
        { field: "address", code: "duplicate_address" },
      );
    }
    used.add(ip);
    return formatIpv4(ip);
  }
  const ip = firstFree(cidr, used);
  if (ip === null) {
    throw new ConflictError(`${what}: no free address left in ${iface.address_v4}`);
  }
  used.add(ip);
  return formatIpv4(ip);
}
