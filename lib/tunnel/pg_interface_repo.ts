/**
 * The `interfaces` table on PostgreSQL: the twin of `SqliteInterfaceRepo`.
 * Counts come back as numbers (the pool parses BIGINT), so the rows look the
 * same on both engines.
 */
import type { PageWindow } from "../paging.ts";
import type { PgAsync } from "../store/pg/pg_async.ts";
import type {
  CountedInterface,
  InterfaceChange,
  InterfaceRepo,
  InterfaceRow,
  InterfaceSummary,
  TunnelCounts,
} from "./interface_repo.ts";

export class PgInterfaceRepo implements InterfaceRepo {
  constructor(private readonly db: PgAsync) {}

  async get(id: string): Promise<InterfaceRow | undefined> {
    const [row] = await this.db.sql<InterfaceRow[]>`SELECT * FROM interfaces WHERE id = ${id}`;
    return row;
  }

  async all(): Promise<InterfaceRow[]> {
    return [...await this.db.sql<InterfaceRow[]>`SELECT * FROM interfaces`];
  }

  async allByName(): Promise<InterfaceRow[]> {
    return [...await this.db.sql<InterfaceRow[]>`SELECT * FROM interfaces ORDER BY name`];
  }

  async listCounted(window: PageWindow = { offset: 0 }): Promise<CountedInterface[]> {
    const [name, id] = (window.after ?? ["", ""]) as [string, string];
    return [
      ...await this.db.sql<CountedInterface[]>`
        SELECT i.*, (SELECT count(*) FROM peers p WHERE p.interface_id = i.id) AS peer_count
        FROM interfaces i WHERE (i.name, i.id) > (${name}, ${id})
        ORDER BY i.name, i.id LIMIT ${window.limit ?? null} OFFSET ${window.offset}`,
    ];
  }

  async count(): Promise<number> {
    const [{ n }] = await this.db.sql<{ n: number }[]>`SELECT count(*) AS n FROM interfaces`;
    return n;
  }

  async getCounted(id: string): Promise<CountedInterface | undefined> {
    const [row] = await this.db.sql<CountedInterface[]>`
      SELECT i.*, (SELECT count(*) FROM peers p WHERE p.interface_id = i.id) AS peer_count
      FROM interfaces i WHERE i.id = ${id}`;
    return row;
  }

  async summaries(): Promise<InterfaceSummary[]> {
    return [...await this.db.sql<InterfaceSummary[]>`SELECT id, name, address_v4 FROM interfaces`];
  }

  async listenPorts(): Promise<number[]> {
    const rows = await this.db.sql<{ p: number }[]>`
      SELECT listen_port AS p FROM interfaces WHERE listen_port IS NOT NULL`;
    return rows.map((r) => r.p);
  }

  async insert(r: InterfaceRow): Promise<void> {
    await this.db.sql`
      INSERT INTO interfaces (id, name, address_v4, listen_port, mtu, role, enabled, private_key,
        public_key, created_at, updated_at)
      VALUES (${r.id}, ${r.name}, ${r.address_v4}, ${r.listen_port}, ${r.mtu}, ${r.role},
        ${r.enabled}, ${r.private_key}, ${r.public_key}, ${r.created_at}, ${r.updated_at})`;
  }

  async update(id: string, c: InterfaceChange, now: number): Promise<void> {
    await this.db.sql`
      UPDATE interfaces SET name = ${c.name}, address_v4 = ${c.address_v4},
        listen_port = ${c.listen_port}, mtu = ${c.mtu}, updated_at = ${now}
      WHERE id = ${id}`;
  }

  async setEnabled(id: string, enabled: boolean, now: number): Promise<void> {
    await this.db.sql`
      UPDATE interfaces SET enabled = ${enabled ? 1 : 0}, updated_at = ${now} WHERE id = ${id}`;
  }

  async setDnsZone(id: string, zone: string | null, now: number): Promise<void> {
    await this.db
      .sql`UPDATE interfaces SET dns_zone = ${zone}, updated_at = ${now} WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM interfaces WHERE id = ${id}`;
  }

  async counts(): Promise<TunnelCounts> {
    const [row] = await this.db.sql<TunnelCounts[]>`
      SELECT (SELECT count(*) FROM interfaces) AS interfaces, (SELECT count(*) FROM peers) AS peers,
        (SELECT count(*) FROM peers WHERE status = 'enabled') AS enabled_peers`;
    return row;
  }
}
