/**
 * The `routes` table: every SQL statement and row mapping of the routes
 * Palisade puts on the host (docs/tunnels.md, "Routes").
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";

/** One stored route, as the table holds it. */
export interface RouteRow {
  id: string;
  /** Canonical IPv4 block, host bits zero. */
  destination: string;
  gateway: string;
  metric: number;
  /** The managed interface the gateway is reached through. */
  interface_id: string;
  created_at: number;
}

/** A route with what its interface contributes: the device name and whether its link is up. */
export interface RouteWithInterface extends RouteRow {
  interface_name: string;
  /** 1 when the interface is enabled (the route is desired on the host), else 0. */
  interface_enabled: number;
}

export interface RouteRepo {
  /** Every route with its interface, in no particular order. */
  all(): Promise<RouteWithInterface[]>;
  /** One route with its interface, or undefined. */
  get(id: string): Promise<RouteWithInterface | undefined>;
  /** The route with this destination and metric (the table's unique pair), or undefined. */
  findByDestination(destination: string, metric: number): Promise<RouteRow | undefined>;
  /** The routes whose gateway is reached through the interface. */
  ofInterface(interfaceId: string): Promise<RouteRow[]>;
  insert(row: RouteRow): Promise<void>;
  delete(id: string): Promise<void>;
}

const SELECT_JOINED = `SELECT r.*, i.name AS interface_name, i.enabled AS interface_enabled
  FROM routes r JOIN interfaces i ON i.id = r.interface_id`;

export class SqliteRouteRepo implements RouteRepo {
  constructor(private readonly db: SqliteAsync) {}

  all(): Promise<RouteWithInterface[]> {
    return this.db.run((store) => store.all<RouteWithInterface>(SELECT_JOINED));
  }

  get(id: string): Promise<RouteWithInterface | undefined> {
    return this.db.run((store) =>
      store.get<RouteWithInterface>(`${SELECT_JOINED} WHERE r.id = ?`, id)
    );
  }

  findByDestination(destination: string, metric: number): Promise<RouteRow | undefined> {
    return this.db.run((store) =>
      store.get<RouteRow>(
        "SELECT * FROM routes WHERE destination = ? AND metric = ?",
        destination,
        metric,
      )
    );
  }

  ofInterface(interfaceId: string): Promise<RouteRow[]> {
    return this.db.run((store) =>
      store.all<RouteRow>(
        "SELECT * FROM routes WHERE interface_id = ? ORDER BY destination, metric",
        interfaceId,
      )
    );
  }

  insert(r: RouteRow): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO routes (id, destination, gateway, metric, interface_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        r.id,
        r.destination,
        r.gateway,
        r.metric,
        r.interface_id,
        r.created_at,
      );
    });
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM routes WHERE id = ?", id);
    });
  }
}
