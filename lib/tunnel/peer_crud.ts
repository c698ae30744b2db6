/**
 * Peer create, bulk create, update and delete. Each change commits with its
 * audit record, then goes to the host (only that peer, or one diff of the
 * interface for a batch), then its event goes out.
 */
import { ConflictError } from "../errors.ts";
import { isUnique } from "./unique.ts";
import type { TunnelContext } from "./context.ts";
import { keepChange } from "./history/history_write.ts";
import { applyThenEmit } from "./host_apply.ts";
import type { InterfaceRow } from "./interface_repo.ts";
import { type Cidr, parseCidr, parseIpv4 } from "./ipv4.ts";
import { assignAddress, type Taken, takenOn } from "./peer_addresses.ts";
import { publishPeer, withdrawPeer } from "./peer_dns.ts";
import {
  peerChanges,
  type PeerCreate,
  type PeerUpdate,
  type PreparedPeer,
  preparePeer,
} from "./peer_input.ts";
import type { PeerListing } from "./peer_listing.ts";
import type { PeerRow } from "./peer_repo.ts";
import { type PeerView, peerView } from "./peer_view.ts";
import { requireInterface, requirePeer } from "./require_row.ts";

/** A unique rule the checks before the write missed (on PostgreSQL, another instance committing first). */
function backstop(err: unknown, what: string): unknown {
  return isUnique(err) ? new ConflictError(`${what}: it conflicts with an existing peer`) : err;
}

function nameTaken(what: string, name: string): ConflictError {
  return new ConflictError(`${what}: name "${name}" is already used on this interface`, {
    field: "name",
    code: "duplicate_name",
  });
}

export class PeerCrud {
  constructor(
    private readonly ctx: TunnelContext,
    private readonly listing: PeerListing,
  ) {}

  /**
   * Settles the address, checks the unique rules in the order SQLite would
   * report them (name before public key), and stores the peer; `taken` gains it.
   */
  async #insert(
    p: PreparedPeer,
    iface: InterfaceRow,
    cidr: Cidr,
    taken: Taken,
    now: number,
    what: string,
  ) {
    const address = assignAddress(p.address, cidr, taken.addresses, iface, what);
    if (taken.names.has(p.name)) throw nameTaken(what, p.name);
    // A generated key is 32 random bytes: only a client's own key can already be taken.
    if (p.private_key === null && await this.ctx.peerRepo.byPublicKey(p.public_key)) {
      throw new ConflictError(`${what}: public_key is already used by another peer`, {
        field: "public_key",
        code: "duplicate_public_key",
      });
    }
    taken.names.add(p.name);
    const { address: _, ...fields } = p;
    try {
      await this.ctx.peerRepo.insert({
        ...fields,
        interface_id: iface.id,
        address,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      throw backstop(err, what);
    }
    return address;
  }

  /** Creates a peer on an interface with an allocated address; applies only that peer to the host. */
  async create(interfaceId: string, input: PeerCreate, actor: string): Promise<PeerView> {
    const what = `Cannot create peer ${JSON.stringify(input?.name)}`;
    const p = await preparePeer(input, what);
    const { transactor, audit, clock } = this.ctx;
    const iface = await transactor.tx(async () => {
      // The interface is read here and not before the keys were generated: its
      // address block may change meanwhile, and the address must be taken
      // from the block as it is when the peer is stored.
      const iface = await requireInterface(this.ctx.interfaceRepo, interfaceId, "interface_id");
      const cidr = parseCidr(iface.address_v4)!;
      const address = await this.#insert(
        p,
        iface,
        cidr,
        await takenOn(this.ctx.peerRepo, iface),
        clock.now(),
        what,
      );
      await publishPeer(this.ctx, p.id, actor);
      await keepChange(this.ctx, "peer", p.id, actor, "Created", null);
      await audit.add({
        actor,
        event_type: "peer.created",
        message: `Created peer "${p.name}" (${address}) on interface "${iface.name}"${
          p.status === "disabled" ? ", disabled" : ""
        }`,
        resource_type: "peer",
        resource_id: p.id,
      });
      return iface;
    });
    await applyThenEmit(
      this.ctx,
      `Peer "${p.name}"`,
      () => this.ctx.host.syncPeer(p.id),
      "PeerChanged",
      { id: p.id, action: "created", interface_id: iface.id, name: p.name },
    );
    return this.listing.view(p.id);
  }

  /**
   * Creates many peers in one transaction and applies them with one diff of
   * the interface (one `wg addconf`). One audit record and one
   * InterfaceChanged ("peers_imported") stand for the batch.
   */
  async createMany(interfaceId: string, inputs: PeerCreate[], actor: string): Promise<PeerView[]> {
    const prepared: PreparedPeer[] = [];
    for (const [i, input] of inputs.entries()) {
      prepared.push(
        await preparePeer(input, `Cannot create peer ${JSON.stringify(input?.name)} (item ${i})`),
      );
    }
    const { transactor, audit, clock } = this.ctx;
    const iface = await transactor.tx(async () => {
      // As in create(): the interface is read only once the keys exist.
      const iface = await requireInterface(this.ctx.interfaceRepo, interfaceId, "interface_id");
      const cidr = parseCidr(iface.address_v4)!;
      const taken = await takenOn(this.ctx.peerRepo, iface);
      const now = clock.now();
      for (const p of prepared) {
        await this.#insert(p, iface, cidr, taken, now, `Cannot create peer "${p.name}"`);
      }
      for (const p of prepared) {
        await publishPeer(this.ctx, p.id, actor);
        await keepChange(this.ctx, "peer", p.id, actor, "Created (import)", null);
      }
      await audit.add({
        actor,
        event_type: "peers.imported",
        message: `Created ${prepared.length} peers on interface "${iface.name}"`,
        resource_type: "interface",
        resource_id: iface.id,
      });
      return iface;
    });
    await applyThenEmit(
      this.ctx,
      `${prepared.length} peers on "${iface.name}"`,
      () => this.ctx.host.syncInterface(iface.id),
      "InterfaceChanged",
      { id: iface.id, action: "peers_imported", name: iface.name },
    );
    const ids = new Set(prepared.map((p) => p.id));
    return (await this.ctx.peerRepo.listedOf(iface.id)).filter((r) => ids.has(r.id)).map(peerView);
  }

  /** Updates parameters; revoked peers cannot be updated (ConflictError). Keys are kept. */
  async update(
    id: string,
    input: PeerUpdate,
    actor: string,
    within?: () => Promise<void>,
  ): Promise<PeerView> {
    const cur = await requirePeer(this.ctx.peerRepo, id);
    const what = `Cannot update peer "${cur.name}"`;
    if (cur.status === "revoked") throw new ConflictError(`${what}: it is revoked`);
    const iface = await requireInterface(this.ctx.interfaceRepo, cur.interface_id);
    const { next, changed } = peerChanges(cur, input, what);
    await this.ctx.transactor.tx(async () => {
      if (input.address !== undefined && input.address.trim() !== cur.address) {
        const used = (await takenOn(this.ctx.peerRepo, iface)).addresses;
        used.delete(parseIpv4(cur.address)!);
        next.address = assignAddress(
          input.address,
          parseCidr(iface.address_v4)!,
          used,
          iface,
          what,
        );
        changed.push("address");
      }
      if (changed.length) {
        await this.#write(next, changed, iface, actor, what);
        await keepChange(this.ctx, "peer", id, actor, `Updated ${changed.join(", ")}`, cur);
      }
      // Only the name and the address show in DNS.
      if (changed.includes("name") || changed.includes("address")) {
        await publishPeer(this.ctx, id, actor, changed.includes("name") ? "name" : "address");
      }
      await within?.();
    });
    if (!changed.length) return this.listing.view(id);
    const event = { id, action: "updated", interface_id: iface.id, name: next.name };
    // Only address and preshared key are host-side; the rest lives in the client config.
    if (changed.includes("address") || changed.includes("preshared_key")) {
      await applyThenEmit(
        this.ctx,
        `Peer "${next.name}"`,
        () => this.ctx.host.syncPeer(id),
        "PeerChanged",
        event,
      );
    } else {
      this.ctx.events.emit("PeerChanged", event);
    }
    return this.listing.view(id);
  }

  async #write(next: PeerRow, changed: string[], iface: InterfaceRow, actor: string, what: string) {
    if (changed.includes("name")) {
      const holder = await this.ctx.peerRepo.idByName(iface.id, next.name);
      if (holder !== undefined && holder !== next.id) throw nameTaken(what, next.name);
    }
    try {
      await this.ctx.peerRepo.update(next.id, next, this.ctx.clock.now());
    } catch (err) {
      throw backstop(err, what);
    }
    await this.ctx.audit.add({
      actor,
      event_type: "peer.updated",
      message: `Updated peer "${next.name}" on interface "${iface.name}": ${changed.join(", ")}`,
      resource_type: "peer",
      resource_id: next.id,
    });
  }

  /** Deletes the peer and removes it from the host. */
  async delete(id: string, actor: string): Promise<void> {
    const cur = await requirePeer(this.ctx.peerRepo, id);
    const iface = await requireInterface(this.ctx.interfaceRepo, cur.interface_id);
    await this.ctx.transactor.tx(async () => {
      await withdrawPeer(this.ctx, id, actor);
      await this.ctx.peerRepo.delete(id);
      await keepChange(this.ctx, "peer", id, actor, "Deleted", cur);
      await this.ctx.audit.add({
        actor,
        event_type: "peer.deleted",
        message: `Deleted peer "${cur.name}" (${cur.address}) from interface "${iface.name}"`,
        resource_type: "peer",
        resource_id: id,
      });
    });
    await applyThenEmit(
      this.ctx,
      `Deletion of peer "${cur.name}"`,
      () => this.ctx.host.syncPeer(id, { ifName: iface.name, publicKey: cur.public_key }),
      "PeerChanged",
      { id, action: "deleted", interface_id: iface.id, name: cur.name },
    );
  }
}
