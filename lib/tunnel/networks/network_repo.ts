/**
 * The `networks` table (migration 7): every SQL statement and row mapping of
 * the tunnel domain's networks (IPAM). A network's allocation is read from
 * the peers of its interface, so listings count them here in one query.
 */
import type { Store } from "../../store/store.ts";

export type NetworkOrigin = "api" | "interface";

/** One stored network, as the table holds it. */
export interface NetworkRow {
  id: string;
  name: string;
  /** Canonical IPv4 block, host bits zero. */
  cidr: string;
  /** The interface whose subnet this is; null for a free-standing pool. */
  interface_id: string | null;
  origin: NetworkOrigin;
  created_at: number;
  updated_at: number;
}

/** A network with its interface's name and peer count, as listings need it. */
export type ListedNetwork = NetworkRow & {
  interface_name: string | null;
  /** Peers of the interface, every status (0 without an interface). */
  peer_count: number;
};

export interface NetworkRepo {
  /** One network, or undefined. */
  get(id: string): NetworkRow | undefined;
  /** Every network, in no particular order. */
  all(): NetworkRow[];
  /** Every network with its interface's name and peer count, by name. */
  listed(): ListedNetwork[];
  /** One network with its interface's name and peer count, or undefined. */
  getListed(id: string): ListedNetwork | undefined;
  /** The network of an interface, or undefined. */
  byInterface(interfaceId: string): NetworkRow | undefined;
  insert(row: NetworkRow): void;
  /** Moves the network to another block. */
  setCidr(id: string, cidr: string, now: number): void;
  /** Attaches the network to an interface (adoption), or frees it with null. */
  setInterface(id: string, interfaceId: string | null, now: number): void;
  delete(id: string): void;
}

const SELECT_LISTED = `SELECT n.*, i.name AS interface_name,
  (SELECT count(*) FROM peers p WHERE n.interface_id IS NOT NULL AND p.interface_id = n.interface_id) AS peer_count
  FROM networks n LEFT JOIN interfaces i ON i.id = n.interface_id`;

export class SqliteNetworkRepo implements NetworkRepo {
  constructor(private readonly store: Store) {}

  get(id: string): NetworkRow | undefined {
    return this.store.get<NetworkRow>("SELECT * FROM networks WHERE id = ?", id);
  }

  all(): NetworkRow[] {
    return this.store.all<NetworkRow>("SELECT * FROM networks");
  }

  listed(): ListedNetwork[] {
    return this.store.all<ListedNetwork>(`${SELECT_LISTED} ORDER BY n.name`);
  }

  getListed(id: string): ListedNetwork | undefined {
    return this.store.get<ListedNetwork>(`${SELECT_LISTED} WHERE n.id = ?`, id);
  }

  byInterface(interfaceId: string): NetworkRow | undefined {
    return this.store.get<NetworkRow>(
      "SELECT * FROM networks WHERE interface_id = ?",
      interfaceId,
    );
  }

  insert(r: NetworkRow): void {
    this.store.run(
      `INSERT INTO networks (id, name, cidr, interface_id, origin, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      r.id,
      r.name,
      r.cidr,
      r.interface_id,
      r.origin,
      r.created_at,
      r.updated_at,
    );
  }

  setCidr(id: string, cidr: string, now: number): void {
    this.store.run("UPDATE networks SET cidr = ?, updated_at = ? WHERE id = ?", cidr, now, id);
  }

  setInterface(id: string, interfaceId: string | null, now: number): void {
    this.store.run(
      "UPDATE networks SET interface_id = ?, updated_at = ? WHERE id = ?",
      interfaceId,
      now,
      id,
    );
  }

  delete(id: string): void {
    this.store.run("DELETE FROM networks WHERE id = ?", id);
  }
}
