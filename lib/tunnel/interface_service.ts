/**
 * Overlay interfaces: CRUD, enable/disable/restart and live status. Every
 * mutation commits (with its audit record) first, then applies to the host
 * through HostSync; events go out after commit.
 */
import { ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import { type PageInfo, type PageRequest, paginateAsync } from "../paging.ts";
import { isUnique } from "./unique.ts";
import type { TunnelContext } from "./context.ts";
import { applyToHost } from "./host_apply.ts";
import type { CountedInterface } from "./interface_repo.ts";
import { checkInterfaceUnique, checkPeersFit, freePort } from "./interface_checks.ts";
import { type InterfaceStatus, interfaceStatus } from "./interface_status.ts";
import { type InterfaceView, interfaceView } from "./interface_view.ts";
import { keys } from "./keys.ts";
import { attachNetwork, detachNetwork } from "./networks/interface_network.ts";
import { checkInterfaceUnused, checkRoutesFit } from "./net_checks.ts";
import { checkDnsZone, publishInterface } from "./peer_dns.ts";
import { requireInterface } from "./require_row.ts";
import { checkInterfaceAddress, checkInterfaceName, checkMtu, checkPort } from "./validate.ts";

export { DEFAULT_LISTEN_PORT } from "./interface_checks.ts";
export type { InterfaceStatus, PeerMetric } from "./interface_status.ts";
export type { InterfaceView } from "./interface_view.ts";

/** The interface that may not be deleted, disabled or renamed. */
export const PROTECTED_INTERFACE = "wg0";
export const DEFAULT_MTU = 1420;

export interface InterfaceCreate {
  name: string;
  address_v4: string;
  /** Lowest free port from 51820 when absent. */
  listen_port?: number;
  /** 1420 when absent. */
  mtu?: number;
  /** The Palisade zone its enabled peers are published in; null or absent: none. */
  dns_zone?: string | null;
}

export type InterfaceUpdate = Partial<InterfaceCreate>;

/** A unique rule the checks before the write missed (on PostgreSQL, another instance committing first). */
function backstop(err: unknown, what: string): unknown {
  return isUnique(err)
    ? new ConflictError(`${what}: it conflicts with an existing interface`)
    : err;
}

export class InterfaceService {
  constructor(private readonly ctx: TunnelContext) {}

  /** All interfaces with their peer counts, by name. */
  async list(): Promise<InterfaceView[]> {
    return (await this.ctx.interfaceRepo.listCounted()).map(interfaceView);
  }

  /** GET /interfaces: a page by name (docs/api.md, "Pagination"); without paging fields, all. */
  async page(req: PageRequest = {}): Promise<{ interfaces: InterfaceView[] } & PageInfo> {
    const repo = this.ctx.interfaceRepo;
    const { items, ...info } = await paginateAsync<CountedInterface>(req, {
      kind: "interfaces",
      shape: ["s", "s"],
      keyOf: (r) => [r.name, r.id],
      rows: (w) => repo.listCounted(w),
      count: () => repo.count(),
    });
    return { interfaces: items.map(interfaceView), ...info };
  }

  /** One interface; NotFoundError when absent. */
  async get(id: string): Promise<InterfaceView> {
    const r = await this.ctx.interfaceRepo.getCounted(id);
    if (!r) throw new NotFoundError(`Interface "${id}" does not exist`);
    return interfaceView(r);
  }

  /** Creates an overlay interface with a fresh X25519 key pair and brings it up on the host. */
  async create(input: InterfaceCreate, actor: string): Promise<InterfaceView> {
    const what = `Cannot create interface ${JSON.stringify(input?.name)}`;
    const name = checkInterfaceName(input.name, what);
    const { text: address } = checkInterfaceAddress(input.address_v4, what);
    const mtu = input.mtu === undefined ? DEFAULT_MTU : checkMtu(input.mtu, what);
    let port = input.listen_port === undefined ? null : checkPort(input.listen_port, what);
    const pair = await keys();
    const id = crypto.randomUUID();
    const { transactor, interfaceRepo, audit, events, clock } = this.ctx;
    const conflict = `Cannot create interface "${name}"`;
    await transactor.tx(async () => {
      port ??= await freePort(interfaceRepo);
      await checkInterfaceUnique(interfaceRepo, conflict, null, name, address, port);
      const now = clock.now();
      try {
        await interfaceRepo.insert({
          id,
          name,
          address_v4: address,
          listen_port: port,
          mtu,
          role: "overlay",
          enabled: 1,
          private_key: pair.privateKey,
          public_key: pair.publicKey,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        throw backstop(err, conflict);
      }
      const network = await attachNetwork(this.ctx, { id, name, address_v4: address }, conflict);
      const zone = await checkDnsZone(this.ctx, input.dns_zone ?? null, conflict);
      if (zone !== null) await interfaceRepo.setDnsZone(id, zone, now);
      await audit.add({
        actor,
        event_type: "interface.created",
        message: `Created interface "${name}" (${address}, port ${port}, mtu ${mtu}); ${network}`,
        resource_type: "interface",
        resource_id: id,
      });
      transactor.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "created", name })
      );
    });
    await applyToHost(this.ctx, `Interface "${name}"`, () => this.ctx.host.syncInterface(id));
    return this.get(id);
  }

  /** Updates name, address, port or MTU; the key pair is kept. Peers must fit a new subnet. */
  async update(id: string, input: InterfaceUpdate, actor: string): Promise<InterfaceView> {
    const cur = await requireInterface(this.ctx.interfaceRepo, id);
    const what = `Cannot update interface "${cur.name}"`;
    const name = input.name === undefined ? cur.name : checkInterfaceName(input.name, what);
    if (cur.name === PROTECTED_INTERFACE && name !== cur.name) {
      throw new ForbiddenError(
        `${what}: "${PROTECTED_INTERFACE}" is protected and cannot be renamed`,
        "name",
      );
    }
    const address = input.address_v4 === undefined
      ? cur.address_v4
      : checkInterfaceAddress(input.address_v4, what).text;
    const port = input.listen_port === undefined
      ? cur.listen_port
      : checkPort(input.listen_port, what);
    const mtu = input.mtu === undefined ? cur.mtu : checkMtu(input.mtu, what);
    const zone = input.dns_zone === undefined
      ? cur.dns_zone ?? null
      : await checkDnsZone(this.ctx, input.dns_zone, what);
    const changed: string[] = [];
    if (name !== cur.name) changed.push(`name "${cur.name}" to "${name}"`);
    if (address !== cur.address_v4) changed.push(`address ${cur.address_v4} to ${address}`);
    if (port !== cur.listen_port) changed.push(`listen_port ${cur.listen_port} to ${port}`);
    if (mtu !== cur.mtu) changed.push(`mtu ${cur.mtu} to ${mtu}`);
    if (zone !== (cur.dns_zone ?? null)) {
      changed.push(`dns_zone ${cur.dns_zone ?? null} to ${zone}`);
    }
    if (!changed.length) return this.get(id);
    const { transactor, interfaceRepo, peerRepo, audit, events, clock } = this.ctx;
    await transactor.tx(async () => {
      await checkInterfaceUnique(interfaceRepo, what, id, name, address, port);
      if (address !== cur.address_v4) {
        await checkPeersFit(peerRepo, what, id, address);
        await checkRoutesFit(this.ctx, await interfaceRepo.all(), id, address, what);
      }
      try {
        await interfaceRepo.update(
          id,
          { name, address_v4: address, listen_port: port, mtu },
          clock.now(),
        );
      } catch (err) {
        throw backstop(err, what);
      }
      // The network follows the block; a move onto another network's block is refused here.
      const network = await attachNetwork(this.ctx, { id, name, address_v4: address }, what);
      if (network) changed.push(network);
      if (zone !== (cur.dns_zone ?? null)) {
        await interfaceRepo.setDnsZone(id, zone, clock.now());
        await publishInterface(this.ctx, id, actor);
      }
      await audit.add({
        actor,
        event_type: "interface.updated",
        message: `Updated interface "${name}": ${changed.join(", ")}`,
        resource_type: "interface",
        resource_id: id,
      });
      transactor.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "updated", name })
      );
    });
    await applyToHost(this.ctx, `Interface "${name}"`, async () => {
      // A device cannot be renamed while in use; a new name means a new device.
      if (name !== cur.name) await this.ctx.host.driver.remove(cur.name);
      await this.ctx.host.syncInterface(id);
      // Routes name the device and need its block (a new device or block drops
      // them); rules name the device.
      if (name !== cur.name || address !== cur.address_v4) await this.ctx.host.syncRoutesOf(id);
      if (name !== cur.name) await this.ctx.host.syncFirewallOf(id);
    });
    return this.get(id);
  }

  /** Deletes the interface, its peers and its device. wg0 is protected (ForbiddenError). */
  async delete(id: string, actor: string): Promise<void> {
    const cur = await requireInterface(this.ctx.interfaceRepo, id);
    if (cur.name === PROTECTED_INTERFACE) {
      throw new ForbiddenError(
        `Cannot delete interface "${cur.name}": it is the protected default interface`,
      );
    }
    const { transactor, interfaceRepo, peerRepo, audit, events } = this.ctx;
    await transactor.tx(async () => {
      await checkInterfaceUnused(this.ctx, cur);
      const n = await peerRepo.countOf(id);
      const network = await detachNetwork(this.ctx, id);
      await publishInterface(this.ctx, id, actor, true);
      await interfaceRepo.delete(id);
      await audit.add({
        actor,
        event_type: "interface.deleted",
        message: `Deleted interface "${cur.name}" and its ${n} peers${network && `; ${network}`}`,
        resource_type: "interface",
        resource_id: id,
      });
      transactor.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "deleted", name: cur.name })
      );
    });
    await applyToHost(
      this.ctx,
      `Deletion of interface "${cur.name}"`,
      () => this.ctx.host.driver.remove(cur.name),
    );
  }

  /** Link up. */
  enable(id: string, actor: string): Promise<InterfaceView> {
    return this.#setEnabled(id, true, actor);
  }

  /** Link down; peers stay configured. wg0 is protected (ForbiddenError). */
  disable(id: string, actor: string): Promise<InterfaceView> {
    return this.#setEnabled(id, false, actor);
  }

  async #setEnabled(id: string, enabled: boolean, actor: string): Promise<InterfaceView> {
    const cur = await requireInterface(this.ctx.interfaceRepo, id);
    if (!enabled && cur.name === PROTECTED_INTERFACE) {
      throw new ForbiddenError(
        `Cannot disable interface "${cur.name}": it is the protected default interface`,
      );
    }
    const action = enabled ? "enabled" : "disabled";
    if ((cur.enabled === 1) !== enabled) {
      const { transactor, interfaceRepo, audit, events, clock } = this.ctx;
      await transactor.tx(async () => {
        await interfaceRepo.setEnabled(id, enabled, clock.now());
        await audit.add({
          actor,
          event_type: `interface.${action}`,
          message: `${enabled ? "Enabled" : "Disabled"} interface "${cur.name}"`,
          resource_type: "interface",
          resource_id: id,
        });
        transactor.afterCommit(() =>
          events.emit("InterfaceChanged", { id, action, name: cur.name })
        );
      });
    }
    // Applied even when unchanged in the store, so enable also repairs a link set down by hand.
    // A disabled interface's routes leave the host; enabling puts them back.
    await applyToHost(this.ctx, `Interface "${cur.name}"`, async () => {
      await this.ctx.host.syncInterface(id);
      await this.ctx.host.syncRoutesOf(id);
    });
    return this.get(id);
  }

  /** Tears the device down and rebuilds it with all stored peers (sessions restart). */
  async restart(id: string, actor: string): Promise<InterfaceView> {
    const cur = await requireInterface(this.ctx.interfaceRepo, id);
    const { transactor, audit, events } = this.ctx;
    await transactor.tx(async () => {
      await audit.add({
        actor,
        event_type: "interface.restarted",
        message: `Restarted interface "${cur.name}"`,
        resource_type: "interface",
        resource_id: id,
      });
      transactor.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "restarted", name: cur.name })
      );
    });
    await applyToHost(this.ctx, `Restart of interface "${cur.name}"`, async () => {
      await this.ctx.host.driver.remove(cur.name);
      await this.ctx.host.syncInterface(id);
    });
    return this.get(id);
  }

  /** Stored configuration merged with one live read: link, counters and per-peer metrics. */
  async status(id: string): Promise<InterfaceStatus> {
    return await interfaceStatus(this.ctx, await requireInterface(this.ctx.interfaceRepo, id));
  }
}
