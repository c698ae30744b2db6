/**
 * The `peers` table: every SQL statement and row mapping of the tunnel
 * domain's peers, including the array-mode listing that serves ten thousand
 * peers in one read.
 */
import type { StatementSync } from "node:sqlite";
import type { Store } from "../store/store.ts";

export type PeerStatus = "enabled" | "disabled" | "revoked";

/** One stored peer, as the table holds it. */
export interface PeerRow {
  id: string;
  interface_id: string;
  name: string;
  public_key: string;
  private_key: string | null;
  preshared_key: string | null;
  address: string;
  allowed_ips: string | null;
  dns: string;
  keepalive: number | null;
  mtu: number | null;
  profile: string;
  status: PeerStatus;
  /**
   * Where the server dials this peer (host:port or [IPv6]:port): set only for
   * the provider peer of an upstream interface; absent or null for clients.
   */
  endpoint?: string | null;
  created_at: number;
  updated_at: number;
}

/** What the host needs of an enabled peer (desired_state.ts). */
export type HostPeer = Pick<
  PeerRow,
  | "interface_id"
  | "public_key"
  | "preshared_key"
  | "address"
  | "allowed_ips"
  | "keepalive"
  | "endpoint"
>;

/** What a listing may be narrowed to. */
export interface PeerFilter {
  interface_id?: string;
  status?: PeerStatus;
  /** Case-insensitive substring of the peer name (ASCII case folding, SQLite LIKE). */
  search?: string;
  limit?: number;
  offset?: number;
  /**
   * Keyset: only peers sorting after this (interface name, peer name, id),
   * the listing's order.
   */
  after?: readonly [string, string, string];
}

/**
 * One peer of a listing as an array, in this order. Interface name and
 * address are not included: they repeat on every row, and each cell would be
 * a new JS string; the listing looks them up once per interface instead.
 * The two key flags are 1 or 0.
 */
export type PeerTuple = readonly [
  id: string,
  interface_id: string,
  name: string,
  public_key: string,
  address: string,
  allowed_ips: string | null,
  dns: string,
  keepalive: number | null,
  mtu: number | null,
  profile: string,
  status: PeerStatus,
  has_private_key: number,
  has_preshared_key: number,
  created_at: number,
  updated_at: number,
];

/** A peer with its interface's name and address and without its secrets. */
export type ListedPeer = Omit<PeerRow, "private_key" | "preshared_key"> & {
  interface_name: string;
  interface_address: string;
  has_private_key: boolean;
  has_preshared_key: boolean;
};

/** The fields a peer update writes. */
export type PeerChange = Pick<
  PeerRow,
  "name" | "profile" | "mtu" | "keepalive" | "allowed_ips" | "dns" | "preshared_key" | "address"
>;

export interface PeerRepo {
  /** Matching peers by interface name, then peer name (then id), as tuples. */
  listTuples(filter: PeerFilter): PeerTuple[];
  /** Number of peers matching `filter`. */
  count(filter: Omit<PeerFilter, "limit" | "offset" | "after">): number;
  /** One peer with its interface, or undefined. */
  getListed(id: string): ListedPeer | undefined;
  /** Every peer of an interface with its interface. */
  listedOf(interfaceId: string): ListedPeer[];
  /** One peer, or undefined. */
  get(id: string): PeerRow | undefined;
  /** One peer with its interface's name, or undefined. */
  getWithInterfaceName(id: string): (PeerRow & { interface_name: string }) | undefined;
  /** Name and address of every peer of an interface. */
  namesAndAddresses(interfaceId: string): { name: string; address: string }[];
  /** Id, name, public key and status of every peer of an interface, by name. */
  summariesOf(interfaceId: string): Pick<PeerRow, "id" | "name" | "public_key" | "status">[];
  /** Number of peers of an interface. */
  countOf(interfaceId: string): number;
  /** What the host needs of every enabled peer. */
  enabledForHost(): HostPeer[];
  /** Id, name and public key of every peer. */
  identities(): Pick<PeerRow, "id" | "name" | "public_key">[];
  /** The peer holding `publicKey`, or undefined. */
  byPublicKey(publicKey: string): Pick<PeerRow, "id" | "interface_id"> | undefined;
  /** Id of the peer named `name` on an interface, or undefined. */
  idByName(interfaceId: string, name: string): string | undefined;
  insert(row: PeerRow): void;
  update(id: string, change: PeerChange, now: number): void;
  /** Sets the status; "revoked" also erases the private and preshared keys. */
  setStatus(id: string, status: PeerStatus, now: number): void;
  delete(id: string): void;
}

/** The WHERE clause of a filtered listing or count; `p` is the peers alias. */
function filterSql(filter: Omit<PeerFilter, "limit" | "offset" | "after">): {
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

/** The columns of a listing in PeerTuple order. */
const TUPLE_COLUMNS = `p.id, p.interface_id, p.name, p.public_key, p.address, p.allowed_ips,
  p.dns, p.keepalive, p.mtu, p.profile, p.status, p.private_key IS NOT NULL,
  p.preshared_key IS NOT NULL, p.created_at, p.updated_at`;

const LISTED_COLUMNS =
  `p.id, p.interface_id, i.name AS interface_name, i.address_v4 AS interface_address,
  p.name, p.public_key, p.address, p.allowed_ips, p.dns, p.keepalive, p.mtu, p.profile, p.status,
  p.private_key IS NOT NULL AS has_private_key, p.preshared_key IS NOT NULL AS has_preshared_key,
  p.created_at, p.updated_at`;

type ListedRow = Omit<ListedPeer, "has_private_key" | "has_preshared_key"> & {
  has_private_key: number;
  has_preshared_key: number;
};

function listed(r: ListedRow): ListedPeer {
  return {
    ...r,
    has_private_key: r.has_private_key === 1,
    has_preshared_key: r.has_preshared_key === 1,
  };
}

export class SqlitePeerRepo implements PeerRepo {
  #arrayStatements = new Map<string, { stmt: StatementSync; arrays: boolean }>();

  constructor(private readonly store: Store) {}

  listTuples(filter: PeerFilter): PeerTuple[] {
    const { where, params } = filterSql(filter);
    const after = filter.after
      ? `${where ? "AND" : "WHERE"} (i.name, p.name, p.id) > (?, ?, ?)`
      : "";
    const { stmt, arrays } = this.#arrayStatement(
      `SELECT ${TUPLE_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id
      ${where} ${after} ORDER BY i.name, p.name, p.id LIMIT ? OFFSET ?`,
    );
    const rows = stmt.all(
      ...params,
      ...(filter.after ?? []),
      filter.limit ?? -1,
      filter.offset ?? 0,
    );
    return (arrays ? rows : rows.map((r) => Object.values(r))) as unknown as PeerTuple[];
  }

  /**
   * A prepared statement returning rows as arrays: with ten thousand rows,
   * array rows are read about twice as fast as node:sqlite's dictionary-mode
   * objects. Kept apart from the store's shared statement cache because the
   * mode is per statement. `arrays` is false where the runtime lacks the mode.
   */
  #arrayStatement(sql: string): { stmt: StatementSync; arrays: boolean } {
    let s = this.#arrayStatements.get(sql);
    if (!s) {
      const stmt = this.store.db.prepare(sql);
      // In Deno's node:sqlite at run time, not yet in its type declarations.
      const set = (stmt as unknown as { setReturnArrays?: (on: boolean) => void })
        .setReturnArrays;
      set?.call(stmt, true);
      s = { stmt, arrays: set !== undefined };
      this.#arrayStatements.set(sql, s);
    }
    return s;
  }

  count(filter: Omit<PeerFilter, "limit" | "offset" | "after">): number {
    const { where, params } = filterSql(filter);
    return this.store.get<{ n: number }>(
      `SELECT count(*) AS n FROM peers p ${where}`,
      ...params,
    )!.n;
  }

  getListed(id: string): ListedPeer | undefined {
    const r = this.store.get<ListedRow>(
      `SELECT ${LISTED_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.id = ?`,
      id,
    );
    return r && listed(r);
  }

  listedOf(interfaceId: string): ListedPeer[] {
    return this.store.all<ListedRow>(
      `SELECT ${LISTED_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.interface_id = ?`,
      interfaceId,
    ).map(listed);
  }

  get(id: string): PeerRow | undefined {
    return this.store.get<PeerRow>("SELECT * FROM peers WHERE id = ?", id);
  }

  getWithInterfaceName(id: string): (PeerRow & { interface_name: string }) | undefined {
    return this.store.get<PeerRow & { interface_name: string }>(
      "SELECT p.*, i.name AS interface_name FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.id = ?",
      id,
    );
  }

  namesAndAddresses(interfaceId: string): { name: string; address: string }[] {
    return this.store.all<{ name: string; address: string }>(
      "SELECT name, address FROM peers WHERE interface_id = ?",
      interfaceId,
    );
  }

  summariesOf(interfaceId: string): Pick<PeerRow, "id" | "name" | "public_key" | "status">[] {
    return this.store.all<Pick<PeerRow, "id" | "name" | "public_key" | "status">>(
      "SELECT id, name, public_key, status FROM peers WHERE interface_id = ? ORDER BY name",
      interfaceId,
    );
  }

  countOf(interfaceId: string): number {
    return this.store.get<{ n: number }>(
      "SELECT count(*) AS n FROM peers WHERE interface_id = ?",
      interfaceId,
    )!.n;
  }

  enabledForHost(): HostPeer[] {
    return this.store.all<HostPeer>(
      `SELECT interface_id, public_key, preshared_key, address, allowed_ips, keepalive, endpoint
         FROM peers WHERE status = 'enabled'`,
    );
  }

  identities(): Pick<PeerRow, "id" | "name" | "public_key">[] {
    return this.store.all<Pick<PeerRow, "id" | "name" | "public_key">>(
      "SELECT id, name, public_key FROM peers",
    );
  }

  byPublicKey(publicKey: string): Pick<PeerRow, "id" | "interface_id"> | undefined {
    return this.store.get<Pick<PeerRow, "id" | "interface_id">>(
      "SELECT id, interface_id FROM peers WHERE public_key = ?",
      publicKey,
    );
  }

  idByName(interfaceId: string, name: string): string | undefined {
    return this.store.get<{ id: string }>(
      "SELECT id FROM peers WHERE interface_id = ? AND name = ?",
      interfaceId,
      name,
    )?.id;
  }

  insert(p: PeerRow): void {
    this.store.run(
      `INSERT INTO peers (id, interface_id, name, public_key, private_key, preshared_key, address, allowed_ips,
         dns, keepalive, mtu, profile, status, endpoint, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      p.id,
      p.interface_id,
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
      p.endpoint ?? null,
      p.created_at,
      p.updated_at,
    );
  }

  update(id: string, c: PeerChange, now: number): void {
    this.store.run(
      `UPDATE peers SET name = ?, profile = ?, mtu = ?, keepalive = ?, allowed_ips = ?, dns = ?, preshared_key = ?,
         address = ?, updated_at = ? WHERE id = ?`,
      c.name,
      c.profile,
      c.mtu,
      c.keepalive,
      c.allowed_ips,
      c.dns,
      c.preshared_key,
      c.address,
      now,
      id,
    );
  }

  setStatus(id: string, status: PeerStatus, now: number): void {
    if (status === "revoked") {
      this.store.run(
        "UPDATE peers SET status = 'revoked', private_key = NULL, preshared_key = NULL, updated_at = ? WHERE id = ?",
        now,
        id,
      );
    } else {
      this.store.run("UPDATE peers SET status = ?, updated_at = ? WHERE id = ?", status, now, id);
    }
  }

  delete(id: string): void {
    this.store.run("DELETE FROM peers WHERE id = ?", id);
  }
}
