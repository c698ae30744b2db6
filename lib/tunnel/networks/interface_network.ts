/**
 * Every interface's subnet is a network. These run inside the interface's
 * own transaction, so an interface and its network are written together or
 * not at all: a new block makes a network (origin 'interface', named after
 * the interface) or adopts a free one of exactly that block; a moved block
 * moves its network; a deleted interface deletes the network it made and
 * frees the one it adopted. Each returns a note for the interface's audit
 * record and announces the network's change after commit.
 */
import { ConflictError } from "../../errors.ts";
import { isUnique } from "../unique.ts";
import type { TunnelContext } from "../context.ts";
import { networkCidr, parseCidr } from "../ipv4.ts";
import type { NetworkRow } from "./network_repo.ts";
import { overlapError, overlapping } from "./network_rules.ts";

type Deps = Pick<TunnelContext, "networkRepo" | "transactor" | "events" | "clock">;

/** What an interface's network is made from. */
export interface InterfaceRef {
  id: string;
  name: string;
  address_v4: string;
}

/** NetworkChanged once the transaction commits. */
export function announce(ctx: Deps, id: string, action: string): void {
  ctx.transactor.afterCommit(() => ctx.events.emit("NetworkChanged", { id, action }));
}

/** `base`, or `base-1`, `base-2`… : the first no network is called. */
function freeName(networks: readonly NetworkRow[], base: string): string {
  const names = new Set(networks.map((n) => n.name));
  let name = base;
  for (let i = 1; names.has(name); i++) name = `${base}-${i}`;
  return name;
}

/**
 * Gives the interface the network of its block (inside the caller's
 * transaction). ConflictError naming `address_v4` when the block overlaps
 * another network, unless it is exactly a free network's block (adopted).
 * Returns a note for the audit record, "" when nothing changed.
 */
export async function attachNetwork(ctx: Deps, iface: InterfaceRef, what: string): Promise<string> {
  const { networkRepo, clock } = ctx;
  const cidr = parseCidr(iface.address_v4)!;
  const text = networkCidr(cidr);
  const current = await networkRepo.byInterface(iface.id);
  if (current?.cidr === text) return "";
  const all = await networkRepo.all();
  const other = overlapping(all, cidr, current?.id ?? null);
  const now = clock.now();
  if (other) {
    if (other.cidr !== text || other.interface_id !== null) {
      throw overlapError(what, "address_v4", iface.address_v4, other);
    }
    const released = current ? `${await releaseNetwork(ctx, current)}, ` : "";
    await networkRepo.setInterface(other.id, iface.id, now);
    announce(ctx, other.id, "updated");
    return `${released}adopted network "${other.name}" (${text})`;
  }
  if (current) {
    await networkRepo.setCidr(current.id, text, now);
    announce(ctx, current.id, "updated");
    return `network "${current.name}" moved to ${text}`;
  }
  const row: NetworkRow = {
    id: crypto.randomUUID(),
    name: freeName(all, iface.name),
    cidr: text,
    interface_id: iface.id,
    origin: "interface",
    created_at: now,
    updated_at: now,
  };
  try {
    await networkRepo.insert(row);
  } catch (err) {
    // The checks above see every network in this transaction; this is the backstop.
    if (!isUnique(err)) throw err;
    throw new ConflictError(`${what}: network ${text} conflicts with an existing network`, {
      field: "address_v4",
      code: "overlapping_network",
    });
  }
  announce(ctx, row.id, "created");
  return `network "${row.name}" (${text}) created`;
}

/**
 * Deletes the network the interface made, or frees (interface_id NULL) the
 * one it adopted; before the interface row goes. Returns the audit note.
 */
export async function detachNetwork(ctx: Deps, interfaceId: string): Promise<string> {
  const n = await ctx.networkRepo.byInterface(interfaceId);
  return n ? await releaseNetwork(ctx, n) : "";
}

async function releaseNetwork(ctx: Deps, n: NetworkRow): Promise<string> {
  if (n.origin === "interface") {
    await ctx.networkRepo.delete(n.id);
    announce(ctx, n.id, "deleted");
    return `network "${n.name}" deleted`;
  }
  await ctx.networkRepo.setInterface(n.id, null, ctx.clock.now());
  announce(ctx, n.id, "updated");
  return `network "${n.name}" freed`;
}
