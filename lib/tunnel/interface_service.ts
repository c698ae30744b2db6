/**
 * Overlay interfaces: CRUD, enable/disable/restart and live status. Every
 * mutation commits (with its audit record) first, then applies to the host
 * through HostSync; events go out after commit.
 */
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from "../errors.ts";
import { isoTime } from "../clock.ts";
import { CONNECTED_WINDOW_SECONDS, type LiveInterface } from "../host/driver.ts";
import { isUniqueViolation } from "../store/store.ts";
import type { TunnelContext } from "./context.ts";
import type { InterfaceRow } from "./desired_state.ts";
import { isHostAddress, networkCidr, overlaps, parseCidr, parseIpv4 } from "./ipv4.ts";
import { keys } from "./keys.ts";
import { checkInterfaceAddress, checkInterfaceName, checkMtu, checkPort } from "./validate.ts";

/** The interface that may not be deleted, disabled or renamed. */
export const PROTECTED_INTERFACE = "wg0";
export const DEFAULT_LISTEN_PORT = 51820;
export const DEFAULT_MTU = 1420;

export interface InterfaceCreate {
  name: string;
  address_v4: string;
  /** Lowest free port from 51820 when absent. */
  listen_port?: number;
  /** 1420 when absent. */
  mtu?: number;
}

export type InterfaceUpdate = Partial<InterfaceCreate>;

/** An interface as the API shows it; the private key never appears. */
export interface InterfaceView {
  id: string;
  name: string;
  address_v4: string;
  listen_port: number | null;
  mtu: number;
  role: "overlay" | "upstream";
  enabled: boolean;
  public_key: string;
  peer_count: number;
  created_at: string;
  updated_at: string;
}

export interface PeerMetric {
  id: string | null;
  name: string | null;
  public_key: string;
  endpoint: string | null;
  latest_handshake: string | null;
  rx_bytes: number;
  tx_bytes: number;
  connected: boolean;
}

export interface InterfaceStatus {
  id: string;
  name: string;
  driver: "linux" | "none";
  /** False when the host layer is off: live fields are then null. */
  host_active: boolean;
  /** "up", "down", "missing" (device absent) or "unknown" (host layer off). */
  link: "up" | "down" | "missing" | "unknown";
  enabled: boolean;
  listen_port: number | null;
  mtu: number | null;
  addresses_v4: string[];
  rx_bytes: number | null;
  tx_bytes: number | null;
  peers: { stored: number; enabled: number; on_host: number; connected: number };
  peer_metrics: PeerMetric[];
  read_at: string | null;
}

type CountedRow = InterfaceRow & { peer_count: number };

function view(r: CountedRow): InterfaceView {
  return {
    id: r.id,
    name: r.name,
    address_v4: r.address_v4,
    listen_port: r.listen_port,
    mtu: r.mtu,
    role: r.role,
    enabled: r.enabled === 1,
    public_key: r.public_key,
    peer_count: r.peer_count,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

const SELECT_COUNTED =
  "SELECT i.*, (SELECT count(*) FROM peers p WHERE p.interface_id = i.id) AS peer_count FROM interfaces i";

export class InterfaceService {
  constructor(private readonly ctx: TunnelContext) {}

  /** All interfaces with their peer counts, by name. */
  list(): InterfaceView[] {
    return this.ctx.store.all<CountedRow>(`${SELECT_COUNTED} ORDER BY i.name`).map(view);
  }

  /** One interface; NotFoundError when absent. */
  get(id: string): InterfaceView {
    const r = this.ctx.store.get<CountedRow>(`${SELECT_COUNTED} WHERE i.id = ?`, id);
    if (!r) throw new NotFoundError(`Interface "${id}" does not exist`);
    return view(r);
  }

  #row(id: string): InterfaceRow {
    const r = this.ctx.store.get<InterfaceRow>("SELECT * FROM interfaces WHERE id = ?", id);
    if (!r) throw new NotFoundError(`Interface "${id}" does not exist`);
    return r;
  }

  /** Rejects a name, overlapping block or port already used by another interface (409). */
  #checkUnique(
    what: string,
    exceptId: string | null,
    name: string,
    address: string,
    port: number | null,
  ) {
    const cidr = parseCidr(address)!;
    for (const o of this.ctx.store.all<InterfaceRow>("SELECT * FROM interfaces")) {
      if (o.id === exceptId) continue;
      if (o.name === name) throw new ConflictError(`${what}: name "${name}" is already used`);
      const oc = parseCidr(o.address_v4)!;
      if (o.address_v4 === address) {
        throw new ConflictError(`${what}: address ${address} is already used`);
      }
      if (overlaps(cidr, oc)) {
        throw new ConflictError(
          `${what}: address ${address} overlaps ${networkCidr(oc)} of interface "${o.name}"`,
        );
      }
      if (port !== null && o.listen_port === port) {
        throw new ConflictError(
          `${what}: listen_port ${port} is already used by interface "${o.name}"`,
        );
      }
    }
  }

  #freePort(): number {
    const used = new Set(
      this.ctx.store.all<{ p: number }>(
        "SELECT listen_port AS p FROM interfaces WHERE listen_port IS NOT NULL",
      )
        .map((r) => r.p),
    );
    let p = DEFAULT_LISTEN_PORT;
    while (used.has(p)) p++;
    return p;
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
    const { store, audit, events, clock } = this.ctx;
    try {
      store.tx(() => {
        port ??= this.#freePort();
        this.#checkUnique(`Cannot create interface "${name}"`, null, name, address, port);
        const now = clock.now();
        store.run(
          `INSERT INTO interfaces (id, name, address_v4, listen_port, mtu, role, enabled, private_key, public_key, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'overlay', 1, ?, ?, ?, ?)`,
          id,
          name,
          address,
          port,
          mtu,
          pair.privateKey,
          pair.publicKey,
          now,
          now,
        );
        audit.record({
          actor,
          event_type: "interface.created",
          message: `Created interface "${name}" (${address}, port ${port}, mtu ${mtu})`,
          resource_type: "interface",
          resource_id: id,
        });
        store.afterCommit(() => events.emit("InterfaceChanged", { id, action: "created", name }));
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ConflictError(
          `Cannot create interface "${name}": it conflicts with an existing interface`,
        );
      }
      throw err;
    }
    await this.#apply(`Interface "${name}"`, () => this.ctx.host.syncInterface(id));
    return this.get(id);
  }

  /** Updates name, address, port or MTU; the key pair is kept. Peers must fit a new subnet. */
  async update(id: string, input: InterfaceUpdate, actor: string): Promise<InterfaceView> {
    const cur = this.#row(id);
    const what = `Cannot update interface "${cur.name}"`;
    const name = input.name === undefined ? cur.name : checkInterfaceName(input.name, what);
    if (cur.name === PROTECTED_INTERFACE && name !== cur.name) {
      throw new ForbiddenError(
        `${what}: "${PROTECTED_INTERFACE}" is protected and cannot be renamed`,
      );
    }
    const address = input.address_v4 === undefined
      ? cur.address_v4
      : checkInterfaceAddress(input.address_v4, what).text;
    const port = input.listen_port === undefined
      ? cur.listen_port
      : checkPort(input.listen_port, what);
    const mtu = input.mtu === undefined ? cur.mtu : checkMtu(input.mtu, what);
    const changed: string[] = [];
    if (name !== cur.name) changed.push(`name "${cur.name}" to "${name}"`);
    if (address !== cur.address_v4) changed.push(`address ${cur.address_v4} to ${address}`);
    if (port !== cur.listen_port) changed.push(`listen_port ${cur.listen_port} to ${port}`);
    if (mtu !== cur.mtu) changed.push(`mtu ${cur.mtu} to ${mtu}`);
    if (!changed.length) return this.get(id);
    const { store, audit, events, clock } = this.ctx;
    try {
      store.tx(() => {
        this.#checkUnique(what, id, name, address, port);
        if (address !== cur.address_v4) {
          const cidr = parseCidr(address)!;
          const own = cidr.address;
          for (
            const p of store.all<{ name: string; address: string }>(
              "SELECT name, address FROM peers WHERE interface_id = ?",
              id,
            )
          ) {
            const ip = parseIpv4(p.address)!;
            if (!isHostAddress(cidr, ip) || ip === own) {
              throw new UnprocessableError(
                `${what}: peer "${p.name}" address ${p.address} does not fit ${address}`,
              );
            }
          }
        }
        store.run(
          "UPDATE interfaces SET name = ?, address_v4 = ?, listen_port = ?, mtu = ?, updated_at = ? WHERE id = ?",
          name,
          address,
          port,
          mtu,
          clock.now(),
          id,
        );
        audit.record({
          actor,
          event_type: "interface.updated",
          message: `Updated interface "${name}": ${changed.join(", ")}`,
          resource_type: "interface",
          resource_id: id,
        });
        store.afterCommit(() => events.emit("InterfaceChanged", { id, action: "updated", name }));
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ConflictError(`${what}: it conflicts with an existing interface`);
      }
      throw err;
    }
    await this.#apply(`Interface "${name}"`, async () => {
      // A device cannot be renamed while in use; a new name means a new device.
      if (name !== cur.name) await this.ctx.host.driver.remove(cur.name);
      await this.ctx.host.syncInterface(id);
    });
    return this.get(id);
  }

  /** Deletes the interface, its peers and its device. wg0 is protected (ForbiddenError). */
  async delete(id: string, actor: string): Promise<void> {
    const cur = this.#row(id);
    if (cur.name === PROTECTED_INTERFACE) {
      throw new ForbiddenError(
        `Cannot delete interface "${cur.name}": it is the protected default interface`,
      );
    }
    const { store, audit, events } = this.ctx;
    store.tx(() => {
      const n =
        store.get<{ n: number }>("SELECT count(*) AS n FROM peers WHERE interface_id = ?", id)!.n;
      store.run("DELETE FROM interfaces WHERE id = ?", id);
      audit.record({
        actor,
        event_type: "interface.deleted",
        message: `Deleted interface "${cur.name}" and its ${n} peers`,
        resource_type: "interface",
        resource_id: id,
      });
      store.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "deleted", name: cur.name })
      );
    });
    await this.#apply(
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
    const cur = this.#row(id);
    if (!enabled && cur.name === PROTECTED_INTERFACE) {
      throw new ForbiddenError(
        `Cannot disable interface "${cur.name}": it is the protected default interface`,
      );
    }
    const action = enabled ? "enabled" : "disabled";
    if ((cur.enabled === 1) !== enabled) {
      const { store, audit, events, clock } = this.ctx;
      store.tx(() => {
        store.run(
          "UPDATE interfaces SET enabled = ?, updated_at = ? WHERE id = ?",
          enabled ? 1 : 0,
          clock.now(),
          id,
        );
        audit.record({
          actor,
          event_type: `interface.${action}`,
          message: `${enabled ? "Enabled" : "Disabled"} interface "${cur.name}"`,
          resource_type: "interface",
          resource_id: id,
        });
        store.afterCommit(() => events.emit("InterfaceChanged", { id, action, name: cur.name }));
      });
    }
    // Applied even when unchanged in the store, so enable also repairs a link set down by hand.
    await this.#apply(`Interface "${cur.name}"`, () => this.ctx.host.syncInterface(id));
    return this.get(id);
  }

  /** Tears the device down and rebuilds it with all stored peers (sessions restart). */
  async restart(id: string, actor: string): Promise<InterfaceView> {
    const cur = this.#row(id);
    const { store, audit, events } = this.ctx;
    store.tx(() => {
      audit.record({
        actor,
        event_type: "interface.restarted",
        message: `Restarted interface "${cur.name}"`,
        resource_type: "interface",
        resource_id: id,
      });
      store.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "restarted", name: cur.name })
      );
    });
    await this.#apply(`Restart of interface "${cur.name}"`, async () => {
      await this.ctx.host.driver.remove(cur.name);
      await this.ctx.host.syncInterface(id);
    });
    return this.get(id);
  }

  /** Stored configuration merged with one live read: link, counters and per-peer metrics. */
  async status(id: string): Promise<InterfaceStatus> {
    const row = this.#row(id);
    const peers = this.ctx.store.all<
      { id: string; name: string; public_key: string; status: string }
    >(
      "SELECT id, name, public_key, status FROM peers WHERE interface_id = ? ORDER BY name",
      id,
    );
    const driver = this.ctx.host.driver;
    const state = await this.ctx.telemetry.state();
    const live: LiveInterface | null = state?.interfaces.get(row.name) ?? null;
    const nowS = Date.now() / 1000;
    const byKey = new Map(peers.map((p) => [p.public_key, p]));
    const metrics: PeerMetric[] = [];
    for (const lp of live?.peers.values() ?? []) {
      const p = byKey.get(lp.publicKey);
      metrics.push({
        id: p?.id ?? null,
        name: p?.name ?? null,
        public_key: lp.publicKey,
        endpoint: lp.endpoint,
        latest_handshake: lp.latestHandshake ? isoTime(lp.latestHandshake * 1000) : null,
        rx_bytes: lp.rxBytes,
        tx_bytes: lp.txBytes,
        connected: lp.latestHandshake > 0 && nowS - lp.latestHandshake < CONNECTED_WINDOW_SECONDS,
      });
    }
    return {
      id: row.id,
      name: row.name,
      driver: driver.name,
      host_active: driver.active,
      link: !driver.active ? "unknown" : !live ? "missing" : live.up ? "up" : "down",
      enabled: row.enabled === 1,
      listen_port: live?.listenPort ?? null,
      mtu: live?.mtu ?? null,
      addresses_v4: live?.addressesV4 ?? [],
      rx_bytes: live ? live.rxBytes : null,
      tx_bytes: live ? live.txBytes : null,
      peers: {
        stored: peers.length,
        enabled: peers.filter((p) => p.status === "enabled").length,
        on_host: live?.peers.size ?? 0,
        connected: metrics.filter((m) => m.connected).length,
      },
      peer_metrics: metrics,
      read_at: state ? isoTime(state.readAt) : null,
    };
  }

  async #apply(what: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await this.ctx.host.apply(what, fn);
    } finally {
      this.ctx.telemetry.invalidate();
    }
  }
}
