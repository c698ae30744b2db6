/** The `routes` table on PostgreSQL: the twin of `SqliteRouteRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import type { RouteRepo, RouteRow, RouteWithInterface } from "./route_repo.ts";

export class PgRouteRepo implements RouteRepo {
  constructor(private readonly db: PgAsync) {}

  async #joined(id: string | null): Promise<RouteWithInterface[]> {
    const sql = this.db.sql;
    return [
      ...await sql<RouteWithInterface[]>`
        SELECT r.*, i.name AS interface_name, i.enabled AS interface_enabled
        FROM routes r JOIN interfaces i ON i.id = r.interface_id
        ${id === null ? sql`` : sql`WHERE r.id = ${id}`}`,
    ];
  }

  all(): Promise<RouteWithInterface[]> {
    return this.#joined(null);
  }

  async get(id: string): Promise<RouteWithInterface | undefined> {
    return (await this.#joined(id))[0];
  }

  async findByDestination(destination: string, metric: number): Promise<RouteRow | undefined> {
    const [row] = await this.db.sql<RouteRow[]>`
      SELECT * FROM routes WHERE destination = ${destination} AND metric = ${metric}`;
    return row;
  }

  async ofInterface(interfaceId: string): Promise<RouteRow[]> {
    return [
      ...await this.db.sql<RouteRow[]>`
        SELECT * FROM routes WHERE interface_id = ${interfaceId} ORDER BY destination, metric`,
    ];
  }

  async insert(r: RouteRow): Promise<void> {
    await this.db.sql`
      INSERT INTO routes (id, destination, gateway, metric, interface_id, created_at)
      VALUES (${r.id}, ${r.destination}, ${r.gateway}, ${r.metric}, ${r.interface_id},
        ${r.created_at})`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM routes WHERE id = ${id}`;
  }
}
