/**
 * What an interface create or update must not collide with, checked inside
 * its transaction before the write: other interfaces' names, blocks and
 * ports, and (for a new block) the interface's own peers.
 */
import { ConflictError, UnprocessableError } from "../errors.ts";
import type { InterfaceRepo } from "./interface_repo.ts";
import { isHostAddress, networkCidr, overlaps, parseCidr, parseIpv4 } from "./ipv4.ts";
import type { PeerRepo } from "./peer_repo.ts";

export const DEFAULT_LISTEN_PORT = 51820;

/** Rejects a name, overlapping block or port already used by another interface (409). */
export async function checkInterfaceUnique(
  repo: InterfaceRepo,
  what: string,
  exceptId: string | null,
  name: string,
  address: string,
  port: number | null,
): Promise<void> {
  const cidr = parseCidr(address)!;
  for (const o of await repo.all()) {
    if (o.id === exceptId) continue;
    if (o.name === name) {
      throw new ConflictError(`${what}: name "${name}" is already used`, {
        field: "name",
        code: "duplicate_name",
      });
    }
    const oc = parseCidr(o.address_v4)!;
    if (o.address_v4 === address) {
      throw new ConflictError(`${what}: address ${address} is already used`, {
        field: "address_v4",
        code: "duplicate_address",
      });
    }
    if (overlaps(cidr, oc)) {
      throw new ConflictError(
        `${what}: address ${address} overlaps ${networkCidr(oc)} of interface "${o.name}"`,
        { field: "address_v4", code: "overlapping_address" },
      );
    }
    if (port !== null && o.listen_port === port) {
      throw new ConflictError(
        `${what}: listen_port ${port} is already used by interface "${o.name}"`,
        { field: "listen_port", code: "duplicate_listen_port" },
      );
    }
  }
}

/** The lowest listen port from 51820 that no interface uses. */
export async function freePort(repo: InterfaceRepo): Promise<number> {
  const used = new Set(await repo.listenPorts());
  let p = DEFAULT_LISTEN_PORT;
  while (used.has(p)) p++;
  return p;
}

/** Rejects a new block (422) that one of the interface's peers would not be a host of. */
export async function checkPeersFit(
  repo: PeerRepo,
  what: string,
  id: string,
  address: string,
): Promise<void> {
  const cidr = parseCidr(address)!;
  const own = cidr.address;
  for (const p of await repo.namesAndAddresses(id)) {
    const ip = parseIpv4(p.address)!;
    if (!isHostAddress(cidr, ip) || ip === own) {
      throw new UnprocessableError(
        `${what}: peer "${p.name}" address ${p.address} does not fit ${address}`,
        "address_v4",
      );
    }
  }
}
