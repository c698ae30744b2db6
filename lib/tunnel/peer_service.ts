/**
 * Peers: CRUD, enable/disable/revoke, listings with live telemetry, client
 * configuration and QR codes. A single-peer change touches only that peer on
 * the host (one `wg addconf` with one [Peer], or one `wg set … remove`).
 *
 * Keys: generated server-side (the private key is kept for the client's
 * config download) unless the caller supplies `public_key`, in which case no
 * private key is stored and config download answers 422. Revoke is final:
 * the peer leaves the host, its private and preshared keys are erased, and it
 * can never be enabled or updated again; its public key and address stay
 * reserved until the record is deleted.
 */
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "../errors.ts";
import { CONNECTED_WINDOW_SECONDS, type LiveInterface } from "../host/driver.ts";
import type { StatementSync } from "node:sqlite";
import { isUniqueViolation } from "../store/store.ts";
import { resolveClientProfile } from "./client_profiles.ts";
import { clientConfig, effectiveAllowedIps, resolveEndpoint } from "./client_config.ts";
import { fastIso } from "./fast_iso.ts";
import type { ServerEndpointSource, TunnelContext } from "./context.ts";
import type { InterfaceRow, PeerRow, PeerStatus } from "./desired_state.ts";
import { type Cidr, firstFree, formatIpv4, isHostAddress, parseCidr, parseIpv4 } from "./ipv4.ts";
import { isWireGuardKey, keys, presharedKey } from "./keys.ts";
import { qr, type QrImages } from "./qr.ts";
import {
  checkAllowedIps,
  checkDns,
  checkKeepalive,
  checkMtu,
  checkPeerName,
  checkProfile,
  type RoutingProfile,
} from "./validate.ts";

export interface PeerCreate {
  name: string;
  /** Routing profile: "full-tunnel" (default) or "split-tunnel". */
  profile?: RoutingProfile;
  mtu?: number | null;
  /** A free host address of the interface's block; allocated when absent. */
  address?: string;
  /** The client's own public key; no private key is stored then. */
  public_key?: string;
  /** Generate a preshared key (default true). */
  preshared_key?: boolean;
  /** Client-side AllowedIPs, comma-separated; the profile's default when absent. */
  allowed_ips?: string | null;
  dns?: string;
  keepalive?: number | null;
  /** Start disabled when false. */
  enabled?: boolean;
}

export interface PeerUpdate {
  name?: string;
  profile?: RoutingProfile;
  mtu?: number | null;
  address?: string;
  /** true keeps or generates a preshared key, false removes it. */
  preshared_key?: boolean;
  allowed_ips?: string | null;
  dns?: string;
  keepalive?: number | null;
}

/** A peer as the API shows it: no private or preshared key. */
export interface PeerView {
  id: string;
  interface_id: string;
  interface_name: string;
  name: string;
  public_key: string;
  address: string;
  /** Effective client-side AllowedIPs. */
  allowed_ips: string;
  /** True when allowed_ips was set for this peer rather than taken from the profile. */
  allowed_ips_custom: boolean;
  dns: string;
  keepalive: number | null;
  mtu: number | null;
  profile: string;
  status: PeerStatus;
  /** False for client-supplied keys and revoked peers: no config can be downloaded. */
  has_private_key: boolean;
  has_preshared_key: boolean;
  created_at: string;
  updated_at: string;
}

/** Live telemetry of one peer; null in a listing when the host layer is off. */
export interface PeerTelemetry {
  /** The peer is configured on its interface on the host. */
  on_host: boolean;
  endpoint: string | null;
  latest_handshake: string | null;
  rx_bytes: number;
  tx_bytes: number;
  /** Handshake within the last 180 s. */
  connected: boolean;
}

export interface PeerWithTelemetry extends PeerView {
  telemetry: PeerTelemetry | null;
}

export interface PeerFilter {
  interface_id?: string;
  status?: PeerStatus;
  /** Case-insensitive substring of the peer name (ASCII case folding, SQLite LIKE). */
  search?: string;
  limit?: number;
  offset?: number;
}

/** The WHERE clause of a filtered listing or count; `p` is the peers alias. */
function filterSql(filter: Omit<PeerFilter, "limit" | "offset">): {
  where: string;
  params: string[];
} {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.interface_id) {
    where.push("p.interface_id = ?");
    params.push(filter.interface_id);
  }
  if (filter.status) {
    where.push("p.status = ?");
    params.push(filter.status);
  }
  if (filter.search) {
    // The name is data, not a pattern: escape LIKE's wildcards.
    where.push("p.name LIKE ? ESCAPE '\\'");
    params.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { where: where.length ? `WHERE ${where.join(" AND ")}` : "", params };
}

/** A page of a peer listing: `total` counts every match; `limit` is null when none was given. */
export interface PeerPage {
  peers: PeerWithTelemetry[];
  total: number;
  limit: number | null;
  offset: number;
}

export interface ConfigOptions {
  device?: string;
  connection?: string;
  endpoint?: string;
}

export interface ClientConfigFile {
  /** A wg-quick friendly name: at most 15 characters plus ".conf". */
  filename: string;
  content: string;
}

export interface PeerQr extends QrImages {
  format: "svg" | "png";
}

type ListRow = Omit<PeerRow, "private_key" | "preshared_key"> & {
  interface_name: string;
  interface_address: string;
  has_private_key: number;
  has_preshared_key: number;
};

const LIST_COLUMNS =
  `p.id, p.interface_id, i.name AS interface_name, i.address_v4 AS interface_address,
  p.name, p.public_key, p.address, p.allowed_ips, p.dns, p.keepalive, p.mtu, p.profile, p.status,
  p.private_key IS NOT NULL AS has_private_key, p.preshared_key IS NOT NULL AS has_preshared_key,
  p.created_at, p.updated_at`;

function view(r: ListRow): PeerView {
  return {
    id: r.id,
    interface_id: r.interface_id,
    interface_name: r.interface_name,
    name: r.name,
    public_key: r.public_key,
    address: r.address,
    allowed_ips: r.allowed_ips ?? effectiveAllowedIps(null, r.profile, r.interface_address),
    allowed_ips_custom: r.allowed_ips !== null,
    dns: r.dns,
    keepalive: r.keepalive,
    mtu: r.mtu,
    profile: r.profile,
    status: r.status,
    has_private_key: r.has_private_key === 1,
    has_preshared_key: r.has_preshared_key === 1,
    created_at: fastIso(r.created_at),
    updated_at: fastIso(r.updated_at),
  };
}

/**
 * The columns of a listing, read in array mode. Interface name and address
 * are not selected: they repeat on every row, and each cell would be a new
 * JS string; the listing looks them up once per interface instead.
 */
const LIST_ARRAY_COLUMNS = `p.id, p.interface_id, p.name, p.public_key, p.address, p.allowed_ips,
  p.dns, p.keepalive, p.mtu, p.profile, p.status, p.private_key IS NOT NULL,
  p.preshared_key IS NOT NULL, p.created_at, p.updated_at`;

/** What a listing needs of a peer's interface, computed once per interface. */
interface ListInterface {
  name: string;
  /** Client-side AllowedIPs of the split-tunnel profile: the interface's block. */
  split: string;
  live: LiveInterface | undefined;
}

/** `view()` of a row in LIST_ARRAY_COLUMNS order, as returned in array mode. */
function viewOfArray(a: unknown[], iface: ListInterface): PeerWithTelemetry {
  const allowed = a[5] as string | null;
  const profile = a[9] as string;
  return {
    id: a[0] as string,
    interface_id: a[1] as string,
    interface_name: iface.name,
    name: a[2] as string,
    public_key: a[3] as string,
    address: a[4] as string,
    allowed_ips: allowed ?? (profile === "split-tunnel" ? iface.split : FULL_TUNNEL),
    allowed_ips_custom: allowed !== null,
    dns: a[6] as string,
    keepalive: a[7] as number | null,
    mtu: a[8] as number | null,
    profile,
    status: a[10] as PeerStatus,
    has_private_key: a[11] === 1,
    has_preshared_key: a[12] === 1,
    created_at: fastIso(a[13] as number),
    updated_at: fastIso(a[14] as number),
    telemetry: null,
  };
}

const FULL_TUNNEL = effectiveAllowedIps(null, "full-tunnel", "0.0.0.0/0");

const OFF_HOST: Readonly<PeerTelemetry> = Object.freeze({
  on_host: false,
  endpoint: null,
  latest_handshake: null,
  rx_bytes: 0,
  tx_bytes: 0,
  connected: false,
});

function telemetryOf(
  iface: LiveInterface | undefined,
  publicKey: string,
  nowS: number,
): PeerTelemetry {
  const lp = iface?.peers.get(publicKey);
  if (!lp) return { ...OFF_HOST };
  return {
    on_host: true,
    endpoint: lp.endpoint,
    latest_handshake: lp.latestHandshake ? fastIso(lp.latestHandshake * 1000) : null,
    rx_bytes: lp.rxBytes,
    tx_bytes: lp.txBytes,
    connected: lp.latestHandshake > 0 && nowS - lp.latestHandshake < CONNECTED_WINDOW_SECONDS,
  };
}

interface PreparedPeer {
  id: string;
  name: string;
  profile: RoutingProfile;
  mtu: number | null;
  address: string | undefined;
  public_key: string;
  private_key: string | null;
  preshared_key: string | null;
  allowed_ips: string | null;
  dns: string;
  keepalive: number | null;
  status: PeerStatus;
}

export class PeerService {
  #arrayStatements = new Map<string, StatementSync>();

  constructor(
    private readonly ctx: TunnelContext,
    private readonly serverEndpoint: ServerEndpointSource,
  ) {}

  /** Peers (all, or filtered) with telemetry from one host read: one SQL query, one dump. */
  async list(filter: PeerFilter = {}): Promise<PeerWithTelemetry[]> {
    const { where, params } = filterSql(filter);
    const sql =
      `SELECT ${LIST_ARRAY_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id
      ${where} ORDER BY i.name, p.name LIMIT ? OFFSET ?`;
    // Start the host read first: the query and the objects are built while
    // `wg` works in its own process, and only the merge waits for it.
    const statePromise = this.ctx.telemetry.state();
    const rows = this.#arrayStatement(sql).all(
      ...params,
      filter.limit ?? -1,
      filter.offset ?? 0,
    ) as unknown as unknown[][];
    const ifaces = new Map<string, ListInterface>();
    for (
      const r of this.ctx.store.all<{ id: string; name: string; address_v4: string }>(
        "SELECT id, name, address_v4 FROM interfaces",
      )
    ) {
      ifaces.set(r.id, {
        name: r.name,
        split: effectiveAllowedIps(null, "split-tunnel", r.address_v4),
        live: undefined,
      });
    }
    const out = new Array<PeerWithTelemetry>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const a = Array.isArray(r) ? r : Object.values(r);
      out[i] = viewOfArray(a, ifaces.get(a[1] as string)!);
    }
    const state = await statePromise;
    if (!state) return out;
    for (const i of ifaces.values()) i.live = state.interfaces.get(i.name);
    const nowS = Date.now() / 1000;
    for (const p of out) {
      p.telemetry = telemetryOf(ifaces.get(p.interface_id)!.live, p.public_key, nowS);
    }
    return out;
  }

  /**
   * A prepared statement returning rows as arrays: with ten thousand rows,
   * array rows are read about twice as fast as node:sqlite's dictionary-mode
   * objects. Kept apart from the store's shared statement cache because the
   * mode is per statement.
   */
  #arrayStatement(sql: string): StatementSync {
    let s = this.#arrayStatements.get(sql);
    if (!s) {
      s = this.ctx.store.db.prepare(sql);
      // In Deno's node:sqlite at run time, not yet in its type declarations.
      const arrays = (s as unknown as { setReturnArrays?: (on: boolean) => void }).setReturnArrays;
      arrays?.call(s, true);
      this.#arrayStatements.set(sql, s);
    }
    return s;
  }

  /** GET /peers: a listing with its total; without a limit every match is returned. */
  async page(filter: PeerFilter = {}): Promise<PeerPage> {
    const peers = await this.list(filter);
    const offset = filter.offset ?? 0;
    // A full listing is its own total; only a real page needs the count query.
    const total = filter.limit === undefined && offset === 0 ? peers.length : this.count(filter);
    return { peers, total, limit: filter.limit ?? null, offset };
  }

  /** Number of peers matching `filter` (for pagination). */
  count(filter: Omit<PeerFilter, "limit" | "offset"> = {}): number {
    const { where, params } = filterSql(filter);
    return this.ctx.store.get<{ n: number }>(
      `SELECT count(*) AS n FROM peers p ${where}`,
      ...params,
    )!.n;
  }

  #listRow(id: string): ListRow {
    const r = this.ctx.store.get<ListRow>(
      `SELECT ${LIST_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.id = ?`,
      id,
    );
    if (!r) throw new NotFoundError(`Peer "${id}" does not exist`);
    return r;
  }

  /** One peer without telemetry; NotFoundError when absent. */
  view(id: string): PeerView {
    return view(this.#listRow(id));
  }

  /** One peer with live telemetry. */
  async get(id: string): Promise<PeerWithTelemetry> {
    const r = this.#listRow(id);
    const state = await this.ctx.telemetry.state();
    const telemetry = state
      ? telemetryOf(state.interfaces.get(r.interface_name), r.public_key, Date.now() / 1000)
      : null;
    return { ...view(r), telemetry };
  }

  #row(id: string): PeerRow {
    const r = this.ctx.store.get<PeerRow>("SELECT * FROM peers WHERE id = ?", id);
    if (!r) throw new NotFoundError(`Peer "${id}" does not exist`);
    return r;
  }

  #iface(id: string): InterfaceRow {
    const r = this.ctx.store.get<InterfaceRow>("SELECT * FROM interfaces WHERE id = ?", id);
    if (!r) throw new NotFoundError(`Interface "${id}" does not exist`);
    return r;
  }

  async #prepare(input: PeerCreate, what: string): Promise<PreparedPeer> {
    const name = checkPeerName(input?.name, what);
    const profile = input.profile === undefined ? "full-tunnel" : checkProfile(input.profile, what);
    let pub: string;
    let priv: string | null = null;
    if (input.public_key !== undefined) {
      if (typeof input.public_key !== "string" || !isWireGuardKey(input.public_key)) {
        throw new ValidationError(`${what}: public_key is not a WireGuard key`, "public_key");
      }
      pub = input.public_key;
    } else {
      const pair = await keys();
      pub = pair.publicKey;
      priv = pair.privateKey;
    }
    return {
      id: crypto.randomUUID(),
      name,
      profile,
      mtu: input.mtu == null ? null : checkMtu(input.mtu, what),
      address: input.address,
      public_key: pub,
      private_key: priv,
      preshared_key: input.preshared_key === false ? null : presharedKey(),
      allowed_ips: input.allowed_ips == null ? null : checkAllowedIps(input.allowed_ips, what),
      dns: input.dns === undefined ? "" : checkDns(input.dns, what),
      keepalive: input.keepalive == null ? null : checkKeepalive(input.keepalive, what),
      status: input.enabled === false ? "disabled" : "enabled",
    };
  }

  /** Addresses in use on an interface, including the interface's own. */
  #usedAddresses(iface: InterfaceRow): Set<number> {
    const used = new Set<number>([parseCidr(iface.address_v4)!.address]);
    for (
      const r of this.ctx.store.all<{ address: string }>(
        "SELECT address FROM peers WHERE interface_id = ?",
        iface.id,
      )
    ) {
      used.add(parseIpv4(r.address)!);
    }
    return used;
  }

  /** Checks an explicit address or allocates the lowest free one; records it in `used`. */
  #address(
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
        );
      }
      if (used.has(ip)) {
        throw new ConflictError(`${what}: address ${requested} is already used on "${iface.name}"`);
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

  #insert(p: PreparedPeer & { address: string }, ifaceId: string, now: number): void {
    this.ctx.store.run(
      `INSERT INTO peers (id, interface_id, name, public_key, private_key, preshared_key, address, allowed_ips,
         dns, keepalive, mtu, profile, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      p.id,
      ifaceId,
      p.name,
      p.public_key,
      p.private_key,
      p.preshared_key,
      p.address,
      p.allowed_ips,
      p.dns,
      p.keepalive,
      p.mtu,
      p.profile,
      p.status,
      now,
      now,
    );
  }

  #conflict(err: unknown, what: string, p: { name: string }): never {
    if (isUniqueViolation(err)) {
      const m = String((err as Error).message);
      if (m.includes("public_key")) {
        throw new ConflictError(`${what}: public_key is already used by another peer`);
      }
      if (m.includes("name")) {
        throw new ConflictError(`${what}: name "${p.name}" is already used on this interface`);
      }
      throw new ConflictError(`${what}: it conflicts with an existing peer`);
    }
    throw err;
  }

  /** Creates a peer on an interface with an allocated address; applies only that peer to the host. */
  async create(interfaceId: string, input: PeerCreate, actor: string): Promise<PeerView> {
    let iface = this.#iface(interfaceId);
    const what = `Cannot create peer ${JSON.stringify(input?.name)}`;
    const p = await this.#prepare(input, what);
    const { store, audit, events, clock } = this.ctx;
    let address = "";
    try {
      store.tx(() => {
        // Read again inside the transaction: the interface (its address block)
        // may have changed while the keys were being generated.
        iface = this.#iface(interfaceId);
        const cidr = parseCidr(iface.address_v4)!;
        address = this.#address(p.address, cidr, this.#usedAddresses(iface), iface, what);
        this.#insert({ ...p, address }, iface.id, clock.now());
        audit.record({
          actor,
          event_type: "peer.created",
          message: `Created peer "${p.name}" (${address}) on interface "${iface.name}"${
            p.status === "disabled" ? ", disabled" : ""
          }`,
          resource_type: "peer",
          resource_id: p.id,
        });
        store.afterCommit(() =>
          events.emit("PeerChanged", {
            id: p.id,
            action: "created",
            interface_id: iface.id,
            name: p.name,
          })
        );
      });
    } catch (err) {
      this.#conflict(err, what, p);
    }
    await this.#apply(`Peer "${p.name}"`, () => this.ctx.host.syncPeer(p.id));
    return this.view(p.id);
  }

  /**
   * Creates many peers in one transaction and applies them with one diff of
   * the interface (one `wg addconf`). One audit record and one
   * InterfaceChanged ("peers_imported") stand for the batch.
   */
  async createMany(interfaceId: string, inputs: PeerCreate[], actor: string): Promise<PeerView[]> {
    let iface = this.#iface(interfaceId);
    const prepared: PreparedPeer[] = [];
    for (const [i, input] of inputs.entries()) {
      prepared.push(
        await this.#prepare(input, `Cannot create peer ${JSON.stringify(input?.name)} (item ${i})`),
      );
    }
    const { store, audit, events, clock } = this.ctx;
    let current: PreparedPeer | null = null;
    try {
      store.tx(() => {
        // As in create(): the interface is read again once the keys exist.
        iface = this.#iface(interfaceId);
        const cidr = parseCidr(iface.address_v4)!;
        const used = this.#usedAddresses(iface);
        const now = clock.now();
        for (const p of prepared) {
          current = p;
          const address = this.#address(
            p.address,
            cidr,
            used,
            iface,
            `Cannot create peer "${p.name}"`,
          );
          this.#insert({ ...p, address }, iface.id, now);
        }
        audit.record({
          actor,
          event_type: "peers.imported",
          message: `Created ${prepared.length} peers on interface "${iface.name}"`,
          resource_type: "interface",
          resource_id: iface.id,
        });
        store.afterCommit(() =>
          events.emit("InterfaceChanged", {
            id: iface.id,
            action: "peers_imported",
            name: iface.name,
          })
        );
      });
    } catch (err) {
      this.#conflict(
        err,
        `Cannot create peer "${(current as PreparedPeer | null)?.name}"`,
        current ?? { name: "" },
      );
    }
    await this.#apply(
      `${prepared.length} peers on "${iface.name}"`,
      () => this.ctx.host.syncInterface(iface.id),
    );
    const ids = new Set(prepared.map((p) => p.id));
    return this.ctx.store.all<ListRow>(
      `SELECT ${LIST_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.interface_id = ?`,
      iface.id,
    ).filter((r) => ids.has(r.id)).map(view);
  }

  /** Updates parameters; revoked peers cannot be updated (ConflictError). Keys are kept. */
  async update(id: string, input: PeerUpdate, actor: string): Promise<PeerView> {
    const cur = this.#row(id);
    const what = `Cannot update peer "${cur.name}"`;
    if (cur.status === "revoked") throw new ConflictError(`${what}: it is revoked`);
    const iface = this.#iface(cur.interface_id);
    const next = { ...cur };
    const changed: string[] = [];
    if (input.name !== undefined && input.name !== cur.name) {
      next.name = checkPeerName(input.name, what);
      changed.push("name");
    }
    if (input.profile !== undefined && input.profile !== cur.profile) {
      next.profile = checkProfile(input.profile, what);
      changed.push("profile");
    }
    if (input.mtu !== undefined && input.mtu !== cur.mtu) {
      next.mtu = input.mtu === null ? null : checkMtu(input.mtu, what);
      changed.push("mtu");
    }
    if (input.keepalive !== undefined && input.keepalive !== cur.keepalive) {
      next.keepalive = input.keepalive === null ? null : checkKeepalive(input.keepalive, what);
      changed.push("keepalive");
    }
    if (input.allowed_ips !== undefined) {
      const v = input.allowed_ips === null ? null : checkAllowedIps(input.allowed_ips, what);
      if (v !== cur.allowed_ips) {
        next.allowed_ips = v;
        changed.push("allowed_ips");
      }
    }
    if (input.dns !== undefined) {
      const v = checkDns(input.dns, what);
      if (v !== cur.dns) {
        next.dns = v;
        changed.push("dns");
      }
    }
    if (input.preshared_key === false && cur.preshared_key !== null) {
      next.preshared_key = null;
      changed.push("preshared_key");
    } else if (input.preshared_key === true && cur.preshared_key === null) {
      next.preshared_key = presharedKey();
      changed.push("preshared_key");
    }
    const { store, audit, events, clock } = this.ctx;
    try {
      store.tx(() => {
        if (input.address !== undefined && input.address.trim() !== cur.address) {
          const used = this.#usedAddresses(iface);
          used.delete(parseIpv4(cur.address)!);
          next.address = this.#address(
            input.address,
            parseCidr(iface.address_v4)!,
            used,
            iface,
            what,
          );
          changed.push("address");
        }
        if (!changed.length) return;
        store.run(
          `UPDATE peers SET name = ?, profile = ?, mtu = ?, keepalive = ?, allowed_ips = ?, dns = ?, preshared_key = ?,
             address = ?, updated_at = ? WHERE id = ?`,
          next.name,
          next.profile,
          next.mtu,
          next.keepalive,
          next.allowed_ips,
          next.dns,
          next.preshared_key,
          next.address,
          clock.now(),
          id,
        );
        audit.record({
          actor,
          event_type: "peer.updated",
          message: `Updated peer "${next.name}" on interface "${iface.name}": ${
            changed.join(", ")
          }`,
          resource_type: "peer",
          resource_id: id,
        });
        store.afterCommit(() =>
          events.emit("PeerChanged", {
            id,
            action: "updated",
            interface_id: iface.id,
            name: next.name,
          })
        );
      });
    } catch (err) {
      this.#conflict(err, what, next);
    }
    // Only address and preshared key are host-side; the rest lives in the client config.
    if (changed.includes("address") || changed.includes("preshared_key")) {
      await this.#apply(`Peer "${next.name}"`, () => this.ctx.host.syncPeer(id));
    }
    return this.view(id);
  }

  /** Deletes the peer and removes it from the host. */
  async delete(id: string, actor: string): Promise<void> {
    const cur = this.#row(id);
    const iface = this.#iface(cur.interface_id);
    const { store, audit, events } = this.ctx;
    store.tx(() => {
      store.run("DELETE FROM peers WHERE id = ?", id);
      audit.record({
        actor,
        event_type: "peer.deleted",
        message: `Deleted peer "${cur.name}" (${cur.address}) from interface "${iface.name}"`,
        resource_type: "peer",
        resource_id: id,
      });
      store.afterCommit(() =>
        events.emit("PeerChanged", {
          id,
          action: "deleted",
          interface_id: iface.id,
          name: cur.name,
        })
      );
    });
    await this.#apply(
      `Deletion of peer "${cur.name}"`,
      () => this.ctx.host.syncPeer(id, { ifName: iface.name, publicKey: cur.public_key }),
    );
  }

  /** Puts the peer on the host; ConflictError when revoked. */
  enable(id: string, actor: string): Promise<PeerView> {
    return this.#setStatus(id, "enabled", actor);
  }

  /** Takes the peer off the host (its sessions end); it keeps its keys and address. */
  disable(id: string, actor: string): Promise<PeerView> {
    return this.#setStatus(id, "disabled", actor);
  }

  /** Final: off the host, keys erased, never enabled again. Repeating it changes nothing. */
  revoke(id: string, actor: string): Promise<PeerView> {
    return this.#setStatus(id, "revoked", actor);
  }

  async #setStatus(id: string, status: PeerStatus, actor: string): Promise<PeerView> {
    const cur = this.#row(id);
    const verb = status === "enabled" ? "enable" : status === "disabled" ? "disable" : "revoke";
    if (cur.status === "revoked" && status !== "revoked") {
      throw new ConflictError(`Cannot ${verb} peer "${cur.name}": it is revoked`);
    }
    const iface = this.#iface(cur.interface_id);
    if (cur.status !== status) {
      const { store, audit, events, clock } = this.ctx;
      store.tx(() => {
        if (status === "revoked") {
          store.run(
            "UPDATE peers SET status = 'revoked', private_key = NULL, preshared_key = NULL, updated_at = ? WHERE id = ?",
            clock.now(),
            id,
          );
        } else {
          store.run(
            "UPDATE peers SET status = ?, updated_at = ? WHERE id = ?",
            status,
            clock.now(),
            id,
          );
        }
        audit.record({
          actor,
          event_type: `peer.${status}`,
          message: `${status[0].toUpperCase()}${
            status.slice(1)
          } peer "${cur.name}" on interface "${iface.name}"`,
          resource_type: "peer",
          resource_id: id,
        });
        store.afterCommit(() =>
          events.emit("PeerChanged", { id, action: status, interface_id: iface.id, name: cur.name })
        );
      });
    }
    // Applied even when unchanged, so enable also repairs a peer removed by hand.
    await this.#apply(`Peer "${cur.name}"`, () => this.ctx.host.syncPeer(id));
    return this.view(id);
  }

  /**
   * The client's wg-quick file. ValidationError for a bad query value,
   * UnprocessableError when there is no endpoint or no stored private key,
   * ConflictError for a revoked peer. Audited: it discloses the private key.
   */
  config(id: string, opts: ConfigOptions, actor: string): ClientConfigFile {
    const p = this.#row(id);
    const iface = this.#iface(p.interface_id);
    const what = `Cannot render the configuration of peer "${p.name}"`;
    if (p.status === "revoked") throw new ConflictError(`${what}: it is revoked`);
    if (!p.private_key) {
      throw new UnprocessableError(
        `${what}: its private key is held by the client, not by Palisade`,
      );
    }
    const transport = opts.device !== undefined || opts.connection !== undefined
      ? resolveClientProfile(opts.device, opts.connection)
      : null;
    const endpoint = resolveEndpoint(opts.endpoint, this.serverEndpoint(), iface.listen_port, what);
    const content = clientConfig({
      peer: { ...p, private_key: p.private_key },
      iface,
      endpoint,
      transport,
    });
    this.ctx.audit.record({
      actor,
      event_type: "peer.config_exported",
      message: `Exported the client configuration of peer "${p.name}" on interface "${iface.name}"`,
      resource_type: "peer",
      resource_id: id,
    });
    const base = p.name.replace(/[^a-zA-Z0-9_=+.-]/g, "_").slice(0, 15) || "peer";
    return { filename: `${base}.conf`, content };
  }

  /** QR images of the client configuration (same rules and errors as `config`). */
  async qr(
    id: string,
    opts: ConfigOptions & { qr_format?: string },
    actor: string,
  ): Promise<PeerQr> {
    const format = opts.qr_format ?? "svg";
    if (format !== "svg" && format !== "png") {
      throw new ValidationError(
        `Unknown qr_format ${JSON.stringify(format)}: use svg or png`,
        "qr_format",
      );
    }
    const { content } = this.config(id, opts, actor);
    return { format, ...(await qr(content)) };
  }

  async #apply(what: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await this.ctx.host.apply(what, fn);
    } finally {
      this.ctx.telemetry.invalidate();
    }
  }
}
