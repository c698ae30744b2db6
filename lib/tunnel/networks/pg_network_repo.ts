/** The `networks` table on PostgreSQL: the twin of `SqliteNetworkRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import type { ListedNetwork, NetworkRepo, NetworkRow } from "./network_repo.ts";

export class PgNetworkRepo implements NetworkRepo {
  constructor(private readonly db: PgAsync) {}

  async get(id: string): Promise<NetworkRow | undefined> {
    const [row] = await this.db.sql<NetworkRow[]>`SELECT * FROM networks WHERE id = ${id}`;
    return row;
  }

  async all(): Promise<NetworkRow[]> {
    return [...await this.db.sql<NetworkRow[]>`SELECT * FROM networks`];
  }

  async #listed(id: string | null): Promise<ListedNetwork[]> {
    const sql = this.db.sql;
    return [
      ...await sql<ListedNetwork[]>`
        SELECT n.*, i.name AS interface_name,
          (SELECT count(*) FROM peers p
            WHERE n.interface_id IS NOT NULL AND p.interface_id = n.interface_id) AS peer_count
        FROM networks n LEFT JOIN interfaces i ON i.id = n.interface_id
        ${id === null ? sql`ORDER BY n.name` : sql`WHERE n.id = ${id}`}`,
    ];
  }

  async listed(): Promise<ListedNetwork[]> {
    return await this.#listed(null);
  }

  async getListed(id: string): Promise<ListedNetwork | undefined> {
    return (await this.#listed(id))[0];
  }

  async byInterface(interfaceId: string): Promise<NetworkRow | undefined> {
    const [row] = await this.db.sql<NetworkRow[]>`
      SELECT * FROM networks WHERE interface_id = ${interfaceId}`;
    return row;
  }

  async insert(r: NetworkRow): Promise<void> {
    await this.db.sql`
      INSERT INTO networks (id, name, cidr, interface_id, origin, created_at, updated_at)
      VALUES (${r.id}, ${r.name}, ${r.cidr}, ${r.interface_id}, ${r.origin}, ${r.created_at},
        ${r.updated_at})`;
  }

  async setCidr(id: string, cidr: string, now: number): Promise<void> {
    await this.db.sql`UPDATE networks SET cidr = ${cidr}, updated_at = ${now} WHERE id = ${id}`;
  }

  async setInterface(id: string, interfaceId: string | null, now: number): Promise<void> {
    await this.db.sql`
      UPDATE networks SET interface_id = ${interfaceId}, updated_at = ${now} WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM networks WHERE id = ${id}`;
  }
}
