/**
 * Networks (IPAM): named IPv4 blocks. Every interface's subnet is one
 * (interface_network.ts keeps them in step with interfaces); the others are
 * free-standing pools made by POST /networks, which an interface created on
 * exactly their block adopts. No host change: a network is bookkeeping, the
 * interface's address is what reaches the host.
 */
import { ConflictError, NotFoundError, ValidationError } from "../../errors.ts";
import { isUnique } from "../unique.ts";
import type { TunnelContext } from "../context.ts";
import { contains, formatIpv4, overlaps, parseCidr, parseIpv4 } from "../ipv4.ts";
import { availableAddresses } from "./available.ts";
import { announce, attachNetwork } from "./interface_network.ts";
import type { ListedNetwork } from "./network_repo.ts";
import {
  checkNetworkCidr,
  checkNetworkName,
  networkSize,
  overlapError,
  overlapping,
} from "./network_rules.ts";
import { type NetworkAvailable, type NetworkView, networkView } from "./network_view.ts";

export type { NetworkAvailable, NetworkView } from "./network_view.ts";

export interface NetworkCreate {
  name: string;
  cidr: string;
}

export interface AvailableQuery {
  /** 1–1000, default 100. */
  limit?: number;
  /** An address inside the network; the page starts above it. */
  after?: string;
}

export const AVAILABLE_LIMIT_DEFAULT = 100;
export const AVAILABLE_LIMIT_MAX = 1000;

export class NetworkService {
  constructor(private readonly ctx: TunnelContext) {}

  /** Every network with its size and utilization, by name. */
  async list(): Promise<NetworkView[]> {
    return (await this.ctx.networkRepo.listed()).map(networkView);
  }

  /** One network; NotFoundError when absent. */
  async get(id: string): Promise<NetworkView> {
    return networkView(await this.#require(id));
  }

  /** A free-standing network (origin 'api'); 400, or 409 for a taken name or an overlap. */
  async create(input: NetworkCreate, actor: string): Promise<NetworkView> {
    const what = `Cannot create network ${JSON.stringify(input?.name)}`;
    const name = checkNetworkName(input.name, what);
    const { text, cidr } = checkNetworkCidr(input.cidr, what);
    const { transactor, networkRepo, interfaceRepo, audit, clock } = this.ctx;
    const id = crypto.randomUUID();
    await transactor.tx(async () => {
      const all = await networkRepo.all();
      if (all.some((n) => n.name === name)) {
        throw new ConflictError(`${what}: name "${name}" is already used`, {
          field: "name",
          code: "duplicate_name",
        });
      }
      const other = overlapping(all, cidr);
      if (other) throw overlapError(what, "cidr", text, other);
      // An interface is only without a network until the start-up backfill; its block counts all the same.
      for (const i of await interfaceRepo.summaries()) {
        if (all.some((n) => n.interface_id === i.id)) continue;
        if (overlaps(cidr, parseCidr(i.address_v4)!)) {
          throw new ConflictError(
            `${what}: cidr ${text} overlaps ${i.address_v4} of interface "${i.name}"`,
            { field: "cidr", code: "overlapping_network" },
          );
        }
      }
      const now = clock.now();
      try {
        await networkRepo.insert({
          id,
          name,
          cidr: text,
          interface_id: null,
          origin: "api",
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if (!isUnique(err)) throw err;
        throw new ConflictError(`${what}: it conflicts with an existing network`);
      }
      await audit.add({
        actor,
        event_type: "network.created",
        message: `Created network "${name}" (${text})`,
        resource_type: "network",
        resource_id: id,
      });
      announce(this.ctx, id, "created");
    });
    return this.get(id);
  }

  /** Deletes a network no interface uses (409 naming `interface_id` otherwise). */
  async delete(id: string, actor: string): Promise<void> {
    const n = await this.#require(id);
    if (n.interface_id !== null) {
      throw new ConflictError(
        `Cannot delete network "${n.name}": it is used by interface "${n.interface_name}"`,
        { field: "interface_id", code: "network_in_use" },
      );
    }
    const { transactor, networkRepo, audit } = this.ctx;
    await transactor.tx(async () => {
      await networkRepo.delete(id);
      await audit.add({
        actor,
        event_type: "network.deleted",
        message: `Deleted network "${n.name}" (${n.cidr})`,
        resource_type: "network",
        resource_id: id,
      });
      announce(this.ctx, id, "deleted");
    });
  }

  /** A page of the network's unallocated host addresses, ascending. */
  async available(id: string, query: AvailableQuery = {}): Promise<NetworkAvailable> {
    const n = await this.#require(id);
    const cidr = parseCidr(n.cidr)!;
    const what = `Cannot list available addresses of network "${n.name}"`;
    const limit = query.limit ?? AVAILABLE_LIMIT_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > AVAILABLE_LIMIT_MAX) {
      throw new ValidationError(
        `${what}: limit ${limit} is outside 1-${AVAILABLE_LIMIT_MAX}`,
        "limit",
      );
    }
    let after: number | null = null;
    if (query.after !== undefined) {
      after = parseIpv4(query.after);
      if (after === null || !contains(cidr, after)) {
        throw new ValidationError(
          `${what}: after ${JSON.stringify(query.after)} is not an address inside ${n.cidr}`,
          "after",
        );
      }
    }
    const allocated = await this.#allocated(n);
    const page = availableAddresses(cidr, allocated, after, limit);
    const addresses = page.addresses.map(formatIpv4);
    return {
      network_id: n.id,
      cidr: n.cidr,
      size: networkSize(cidr.prefix),
      allocated: allocated.size,
      addresses,
      next_after: page.more ? addresses[addresses.length - 1] ?? null : null,
    };
  }

  /**
   * Gives every interface stored without a network (before migration 7) its
   * network; idempotent. One transaction per interface, so one that cannot
   * have its network (a block edited by hand to overlap) leaves the others
   * done; it is logged and left without one. Returns how many were made.
   */
  async backfill(actor = "system"): Promise<number> {
    const { transactor, interfaceRepo, networkRepo, audit, log } = this.ctx;
    let made = 0;
    for (const i of await interfaceRepo.allByName()) {
      // An upstream's address is the provider's to give (often a /32): no pool to allocate from.
      if (i.role === "upstream" || await networkRepo.byInterface(i.id)) continue;
      try {
        await transactor.tx(async () => {
          const note = await attachNetwork(
            this.ctx,
            i,
            `Cannot give interface "${i.name}" a network`,
          );
          const n = (await networkRepo.byInterface(i.id))!;
          await audit.add({
            actor,
            event_type: n.origin === "interface" ? "network.created" : "network.adopted",
            message: `Network of interface "${i.name}": ${note}`,
            resource_type: "network",
            resource_id: n.id,
          });
        });
        made++;
      } catch (err) {
        log.warn("Interface left without a network", { interface: i.name, error: err });
      }
    }
    return made;
  }

  /** The interface's own address and every peer address of its interface. */
  async #allocated(n: ListedNetwork): Promise<Set<number>> {
    const used = new Set<number>();
    if (n.interface_id === null) return used;
    const iface = await this.ctx.interfaceRepo.get(n.interface_id);
    if (iface) used.add(parseCidr(iface.address_v4)!.address);
    for (const p of await this.ctx.peerRepo.namesAndAddresses(n.interface_id)) {
      used.add(parseIpv4(p.address)!);
    }
    return used;
  }

  async #require(id: string): Promise<ListedNetwork> {
    const n = await this.ctx.networkRepo.getListed(id);
    if (!n) throw new NotFoundError(`Network "${id}" does not exist`);
    return n;
  }
}
