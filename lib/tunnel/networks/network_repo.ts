/**
 * The `networks` table (migration 7): every SQL statement and row mapping of
 * the tunnel domain's networks (IPAM). A network's allocation is read from
 * the peers of its interface, so listings count them here in one query.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";

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
  get(id: string): Promise<NetworkRow | undefined>;
  /** Every network, in no particular order. */
  all(): Promise<NetworkRow[]>;
  /** Every network with its interface's name and peer count, by name. */
  listed(): Promise<ListedNetwork[]>;
  /** One network with its interface's name and peer count, or undefined. */
  getListed(id: string): Promise<ListedNetwork | undefined>;
  /** The network of an interface, or undefined. */
  byInterface(interfaceId: string): Promise<NetworkRow | undefined>;
  insert(row: NetworkRow): Promise<void>;
  /** Moves the network to another block. */
  setCidr(id: string, cidr: string, now: number): Promise<void>;
  /** Attaches the network to an interface (adoption), or frees it with null. */
  setInterface(id: string, interfaceId: string | null, now: number): Promise<void>;
  delete(id: string): Promise<void>;
}

const SELECT_LISTED = `SELECT n.*, i.name AS interface_name,
  (SELECT count(*) FROM peers p WHERE n.interface_id IS NOT NULL AND p.interface_id = n.interface_id) AS peer_count
  FROM networks n LEFT JOIN interfaces i ON i.id = n.interface_id`;

export class SqliteNetworkRepo implements NetworkRepo {
  constructor(private readonly db: SqliteAsync) {}

  get(id: string): Promise<NetworkRow | undefined> {
    return this.db.run((store) => store.get<NetworkRow>("SELECT * FROM networks WHERE id = ?", id));
  }

  all(): Promise<NetworkRow[]> {
    return this.db.run((store) => store.all<NetworkRow>("SELECT * FROM networks"));
  }

  listed(): Promise<ListedNetwork[]> {
    return this.db.run((store) => store.all<ListedNetwork>(`${SELECT_LISTED} ORDER BY n.name`));
  }

  getListed(id: string): Promise<ListedNetwork | undefined> {
    return this.db.run((store) => store.get<ListedNetwork>(`${SELECT_LISTED} WHERE n.id = ?`, id));
  }

  byInterface(interfaceId: string): Promise<NetworkRow | undefined> {
    return this.db.run((store) =>
      store.get<NetworkRow>(
        "SELECT * FROM networks WHERE interface_id = ?",
        interfaceId,
      )
    );
  }

  insert(r: NetworkRow): Promise<void> {
    return this.db.run((store) => {
      store.run(
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
    });
  }

  setCidr(id: string, cidr: string, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run("UPDATE networks SET cidr = ?, updated_at = ? WHERE id = ?", cidr, now, id);
    });
  }

  setInterface(id: string, interfaceId: string | null, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "UPDATE networks SET interface_id = ?, updated_at = ? WHERE id = ?",
        interfaceId,
        now,
        id,
      );
    });
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM networks WHERE id = ?", id);
    });
  }
}
