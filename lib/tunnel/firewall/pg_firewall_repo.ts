/**
 * The `firewall_rules` table on PostgreSQL: the twin of `SqliteFirewallRepo`.
 * The next position is read and then written inside the service's
 * SERIALIZABLE transaction, so two concurrent inserts cannot take one
 * position: one of them is re-run (docs/scaling.md, "Transactions").
 */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import type { FirewallRepo, FirewallRuleRow, FirewallRuleWithInterface } from "./firewall_repo.ts";

export class PgFirewallRepo implements FirewallRepo {
  constructor(private readonly db: PgAsync) {}

  async #joined(id: string | null): Promise<FirewallRuleWithInterface[]> {
    const sql = this.db.sql;
    return [
      ...await sql<FirewallRuleWithInterface[]>`
        SELECT f.*, i.name AS interface_name
        FROM firewall_rules f LEFT JOIN interfaces i ON i.id = f.interface_id
        ${id === null ? sql`ORDER BY f.position` : sql`WHERE f.id = ${id}`}`,
    ];
  }

  list(): Promise<FirewallRuleWithInterface[]> {
    return this.#joined(null);
  }

  async get(id: string): Promise<FirewallRuleWithInterface | undefined> {
    return (await this.#joined(id))[0];
  }

  async byName(name: string): Promise<FirewallRuleRow | undefined> {
    const [row] = await this.db.sql<FirewallRuleRow[]>`
      SELECT * FROM firewall_rules WHERE name = ${name}`;
    return row;
  }

  async maxPosition(): Promise<number> {
    const [{ p }] = await this.db.sql<{ p: number }[]>`
      SELECT coalesce(max(position), 0) AS p FROM firewall_rules`;
    return p;
  }

  async ofInterface(interfaceId: string): Promise<FirewallRuleRow[]> {
    return [
      ...await this.db.sql<FirewallRuleRow[]>`
        SELECT * FROM firewall_rules WHERE interface_id = ${interfaceId} ORDER BY position`,
    ];
  }

  async insert(r: FirewallRuleRow): Promise<void> {
    await this.db.sql`
      INSERT INTO firewall_rules (id, name, protocol, port, action, direction, interface_id,
        source, enabled, position, created_at, updated_at)
      VALUES (${r.id}, ${r.name}, ${r.protocol}, ${r.port}, ${r.action}, ${r.direction},
        ${r.interface_id}, ${r.source}, ${r.enabled}, ${r.position}, ${r.created_at},
        ${r.updated_at})`;
  }

  async setEnabled(id: string, enabled: boolean, now: number): Promise<void> {
    await this.db.sql`
      UPDATE firewall_rules SET enabled = ${enabled ? 1 : 0}, updated_at = ${now}
      WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM firewall_rules WHERE id = ${id}`;
  }
}
