/**
 * The `interfaces` table: every SQL statement and row mapping of the tunnel
 * domain's interfaces, plus the counts of the tunnels probe.
 */
import type { PageWindow } from "../paging.ts";
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** One stored interface, as the table holds it. */
export interface InterfaceRow {
  id: string;
  name: string;
  address_v4: string;
  listen_port: number | null;
  mtu: number;
  role: "overlay" | "upstream";
  /** 1 when the link should be up, 0 when disabled. */
  enabled: number;
  private_key: string;
  public_key: string;
  created_at: number;
  updated_at: number;
  /** The zone its enabled peers are published in (migration 21); null or absent: none. */
  dns_zone?: string | null;
}

/** An interface with the number of its peers. */
export type CountedInterface = InterfaceRow & { peer_count: number };

/** What a peer listing needs of each interface. */
export interface InterfaceSummary {
  id: string;
  name: string;
  address_v4: string;
}

/** The fields an interface update writes. */
export interface InterfaceChange {
  name: string;
  address_v4: string;
  listen_port: number | null;
  mtu: number;
}

/** Totals for the tunnels probe of GET /system. */
export interface TunnelCounts {
  interfaces: number;
  peers: number;
  enabled_peers: number;
}

export interface InterfaceRepo {
  /** One interface, or undefined. */
  get(id: string): Promise<InterfaceRow | undefined>;
  /** Every interface, in no particular order. */
  all(): Promise<InterfaceRow[]>;
  /** Every interface, by name. */
  allByName(): Promise<InterfaceRow[]>;
  /** The interfaces of `window` (keyset on name, id) with their peer counts, by name; default all. */
  listCounted(window?: PageWindow): Promise<CountedInterface[]>;
  /** How many interfaces there are. */
  count(): Promise<number>;
  /** One interface with its peer count, or undefined. */
  getCounted(id: string): Promise<CountedInterface | undefined>;
  /** Id, name and address of every interface. */
  summaries(): Promise<InterfaceSummary[]>;
  /** The listen ports in use. */
  listenPorts(): Promise<number[]>;
  insert(row: InterfaceRow): Promise<void>;
  update(id: string, change: InterfaceChange, now: number): Promise<void>;
  setEnabled(id: string, enabled: boolean, now: number): Promise<void>;
  /** Sets the zone the interface's peers are published in; null: none. */
  setDnsZone(id: string, zone: string | null, now: number): Promise<void>;
  /** Deletes the interface; its peers go with it. */
  delete(id: string): Promise<void>;
  counts(): Promise<TunnelCounts>;
}

const SELECT_COUNTED =
  "SELECT i.*, (SELECT count(*) FROM peers p WHERE p.interface_id = i.id) AS peer_count FROM interfaces i";

export class SqliteInterfaceRepo implements InterfaceRepo {
  constructor(private readonly db: SqliteAsync) {}

  get(id: string): Promise<InterfaceRow | undefined> {
    return this.db.run((store) =>
      store.get<InterfaceRow>("SELECT * FROM interfaces WHERE id = ?", id)
    );
  }

  all(): Promise<InterfaceRow[]> {
    return this.db.run((store) => store.all<InterfaceRow>("SELECT * FROM interfaces"));
  }

  allByName(): Promise<InterfaceRow[]> {
    return this.db.run((store) =>
      store.all<InterfaceRow>("SELECT * FROM interfaces ORDER BY name")
    );
  }

  listCounted(window: PageWindow = { offset: 0 }): Promise<CountedInterface[]> {
    return this.db.run((store) => {
      // The name's unique index serves the range; an empty name sorts before every interface.
      const [name, id] = window.after ?? ["", ""];
      return store.all<CountedInterface>(
        `${SELECT_COUNTED} WHERE (i.name, i.id) > (?, ?) ORDER BY i.name, i.id LIMIT ? OFFSET ?`,
        name,
        id,
        window.limit ?? -1,
        window.offset,
      );
    });
  }

  count(): Promise<number> {
    return this.db.run((store) =>
      store.get<{ n: number }>("SELECT count(*) AS n FROM interfaces")!.n
    );
  }

  getCounted(id: string): Promise<CountedInterface | undefined> {
    return this.db.run((store) =>
      store.get<CountedInterface>(`${SELECT_COUNTED} WHERE i.id = ?`, id)
    );
  }

  summaries(): Promise<InterfaceSummary[]> {
    return this.db.run((store) =>
      store.all<InterfaceSummary>("SELECT id, name, address_v4 FROM interfaces")
    );
  }

  listenPorts(): Promise<number[]> {
    return this.db.run((store) =>
      store.all<{ p: number }>(
        "SELECT listen_port AS p FROM interfaces WHERE listen_port IS NOT NULL",
      ).map((r) => r.p)
    );
  }

  insert(r: InterfaceRow): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO interfaces (id, name, address_v4, listen_port, mtu, role, enabled, private_key, public_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        r.id,
        r.name,
        r.address_v4,
        r.listen_port,
        r.mtu,
        r.role,
        r.enabled,
        r.private_key,
        r.public_key,
        r.created_at,
        r.updated_at,
      );
    });
  }

  update(id: string, c: InterfaceChange, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "UPDATE interfaces SET name = ?, address_v4 = ?, listen_port = ?, mtu = ?, updated_at = ? WHERE id = ?",
        c.name,
        c.address_v4,
        c.listen_port,
        c.mtu,
        now,
        id,
      );
    });
  }

  setEnabled(id: string, enabled: boolean, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "UPDATE interfaces SET enabled = ?, updated_at = ? WHERE id = ?",
        enabled ? 1 : 0,
        now,
        id,
      );
    });
  }

  setDnsZone(id: string, zone: string | null, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run("UPDATE interfaces SET dns_zone = ?, updated_at = ? WHERE id = ?", zone, now, id);
    });
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM interfaces WHERE id = ?", id);
    });
  }

  counts(): Promise<TunnelCounts> {
    return this.db.run((store) =>
      store.get<TunnelCounts>(
        `SELECT (SELECT count(*) FROM interfaces) AS interfaces, (SELECT count(*) FROM peers) AS peers,
           (SELECT count(*) FROM peers WHERE status = 'enabled') AS enabled_peers`,
      )!
    );
  }
}
