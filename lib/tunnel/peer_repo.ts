/**
 * The `peers` table: every SQL statement and row mapping of the tunnel
 * domain's peers, including the array-mode listing that serves ten thousand
 * peers in one read.
 */
import type { StatementSync } from "node:sqlite";
import type { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import {
  type HostPeer,
  likePattern,
  listed,
  type ListedPeer,
  type ListedRow,
  type PeerChange,
  type PeerFilter,
  type PeerIdentity,
  type PeerRow,
  type PeerStatus,
  type PeerSummary,
  type PeerTuple,
  type PeerWithInterface,
} from "./peer_rows.ts";

export * from "./peer_rows.ts";

export interface PeerRepo {
  /** Matching peers by interface name, then peer name (then id), as tuples. */
  listTuples(filter: PeerFilter): Promise<PeerTuple[]>;
  /** Number of peers matching `filter`. */
  count(filter: Omit<PeerFilter, "limit" | "offset" | "after">): Promise<number>;
  /** One peer with its interface, or undefined. */
  getListed(id: string): Promise<ListedPeer | undefined>;
  /** Every peer of an interface with its interface. */
  listedOf(interfaceId: string): Promise<ListedPeer[]>;
  /** One peer, or undefined. */
  get(id: string): Promise<PeerRow | undefined>;
  /** One peer with its interface's name, or undefined. */
  getWithInterfaceName(id: string): Promise<(PeerWithInterface) | undefined>;
  /** Name and address of every peer of an interface. */
  namesAndAddresses(interfaceId: string): Promise<{ name: string; address: string }[]>;
  /** Id, name, public key and status of every peer of an interface, by name. */
  summariesOf(
    interfaceId: string,
  ): Promise<PeerSummary[]>;
  /** Number of peers of an interface. */
  countOf(interfaceId: string): Promise<number>;
  /** What the host needs of every enabled peer. */
  enabledForHost(): Promise<HostPeer[]>;
  /** Id, name and public key of every peer. */
  identities(): Promise<PeerIdentity[]>;
  /** The peer holding `publicKey`, or undefined. */
  byPublicKey(publicKey: string): Promise<Pick<PeerRow, "id" | "interface_id"> | undefined>;
  /** Id of the peer named `name` on an interface, or undefined. */
  idByName(interfaceId: string, name: string): Promise<string | undefined>;
  insert(row: PeerRow): Promise<void>;
  update(id: string, change: PeerChange, now: number): Promise<void>;
  /** Sets the status; "revoked" also erases the private and preshared keys. */
  setStatus(id: string, status: PeerStatus, now: number): Promise<void>;
  delete(id: string): Promise<void>;
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
    params.push(likePattern(filter.search));
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

export class SqlitePeerRepo implements PeerRepo {
  #arrayStatements = new Map<string, { stmt: StatementSync; arrays: boolean }>();

  constructor(private readonly db: SqliteAsync) {}

  listTuples(filter: PeerFilter): Promise<PeerTuple[]> {
    return this.db.run((store) => {
      const { where, params } = filterSql(filter);
      const after = filter.after
        ? `${where ? "AND" : "WHERE"} (i.name, p.name, p.id) > (?, ?, ?)`
        : "";
      const { stmt, arrays } = this.#arrayStatement(
        store,
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
    });
  }

  /**
   * A prepared statement returning rows as arrays: with ten thousand rows,
   * array rows are read about twice as fast as node:sqlite's dictionary-mode
   * objects. Kept apart from the store's shared statement cache because the
   * mode is per statement. `arrays` is false where the runtime lacks the mode.
   */
  #arrayStatement(store: Store, sql: string): { stmt: StatementSync; arrays: boolean } {
    let s = this.#arrayStatements.get(sql);
    if (!s) {
      const stmt = store.db.prepare(sql);
      // In Deno's node:sqlite at run time, not yet in its type declarations.
      const set = (stmt as unknown as { setReturnArrays?: (on: boolean) => void })
        .setReturnArrays;
      set?.call(stmt, true);
      s = { stmt, arrays: set !== undefined };
      this.#arrayStatements.set(sql, s);
    }
    return s;
  }

  count(filter: Omit<PeerFilter, "limit" | "offset" | "after">): Promise<number> {
    return this.db.run((store) => {
      const { where, params } = filterSql(filter);
      return store.get<{ n: number }>(
        `SELECT count(*) AS n FROM peers p ${where}`,
        ...params,
      )!.n;
    });
  }

  getListed(id: string): Promise<ListedPeer | undefined> {
    return this.db.run((store) => {
      const r = store.get<ListedRow>(
        `SELECT ${LISTED_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.id = ?`,
        id,
      );
      return r && listed(r);
    });
  }

  listedOf(interfaceId: string): Promise<ListedPeer[]> {
    return this.db.run((store) =>
      store.all<ListedRow>(
        `SELECT ${LISTED_COLUMNS} FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.interface_id = ?`,
        interfaceId,
      ).map(listed)
    );
  }

  get(id: string): Promise<PeerRow | undefined> {
    return this.db.run((store) => store.get<PeerRow>("SELECT * FROM peers WHERE id = ?", id));
  }

  getWithInterfaceName(id: string): Promise<(PeerWithInterface) | undefined> {
    return this.db.run((store) =>
      store.get<PeerWithInterface>(
        "SELECT p.*, i.name AS interface_name FROM peers p JOIN interfaces i ON i.id = p.interface_id WHERE p.id = ?",
        id,
      )
    );
  }

  namesAndAddresses(interfaceId: string): Promise<{ name: string; address: string }[]> {
    return this.db.run((store) =>
      store.all<{ name: string; address: string }>(
        "SELECT name, address FROM peers WHERE interface_id = ?",
        interfaceId,
      )
    );
  }

  summariesOf(
    interfaceId: string,
  ): Promise<PeerSummary[]> {
    return this.db.run((store) =>
      store.all<PeerSummary>(
        "SELECT id, name, public_key, status FROM peers WHERE interface_id = ? ORDER BY name",
        interfaceId,
      )
    );
  }

  countOf(interfaceId: string): Promise<number> {
    return this.db.run((store) =>
      store.get<{ n: number }>(
        "SELECT count(*) AS n FROM peers WHERE interface_id = ?",
        interfaceId,
      )!.n
    );
  }

  enabledForHost(): Promise<HostPeer[]> {
    return this.db.run((store) =>
      store.all<HostPeer>(
        `SELECT interface_id, public_key, preshared_key, address, allowed_ips, keepalive, endpoint
           FROM peers WHERE status = 'enabled'`,
      )
    );
  }

  identities(): Promise<PeerIdentity[]> {
    return this.db.run((store) =>
      store.all<PeerIdentity>(
        "SELECT id, name, public_key FROM peers",
      )
    );
  }

  byPublicKey(publicKey: string): Promise<Pick<PeerRow, "id" | "interface_id"> | undefined> {
    return this.db.run((store) =>
      store.get<Pick<PeerRow, "id" | "interface_id">>(
        "SELECT id, interface_id FROM peers WHERE public_key = ?",
        publicKey,
      )
    );
  }

  idByName(interfaceId: string, name: string): Promise<string | undefined> {
    return this.db.run((store) =>
      store.get<{ id: string }>(
        "SELECT id FROM peers WHERE interface_id = ? AND name = ?",
        interfaceId,
        name,
      )?.id
    );
  }

  insert(p: PeerRow): Promise<void> {
    return this.db.run((store) => {
      store.run(
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
    });
  }

  update(id: string, c: PeerChange, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
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
    });
  }

  setStatus(id: string, status: PeerStatus, now: number): Promise<void> {
    return this.db.run((store) => {
      if (status === "revoked") {
        store.run(
          "UPDATE peers SET status = 'revoked', private_key = NULL, preshared_key = NULL, updated_at = ? WHERE id = ?",
          now,
          id,
        );
      } else {
        store.run("UPDATE peers SET status = ?, updated_at = ? WHERE id = ?", status, now, id);
      }
    });
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM peers WHERE id = ?", id);
    });
  }
}
