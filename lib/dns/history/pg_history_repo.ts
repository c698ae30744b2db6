/** The `dns_history` table on PostgreSQL: the twin of `SqliteHistoryRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type HistoryEntry,
  type HistoryRepo,
  type HistoryRow,
  type NewHistoryEntry,
  toEntry,
} from "./history_repo.ts";

export class PgHistoryRepo implements HistoryRepo {
  constructor(private readonly db: PgAsync) {}

  async add(e: NewHistoryEntry): Promise<number> {
    const [r] = await this.db.sql<{ id: number }[]>`
      INSERT INTO dns_history (zone, serial_from, serial_to, actor, summary, changes, reverts,
                               created_at)
      VALUES (${e.zone}, ${e.serialFrom}, ${e.serialTo}, ${e.actor}, ${e.summary},
              ${JSON.stringify(e.changes)}, ${e.reverts}, ${e.createdAt})
      RETURNING id`;
    return Number(r.id);
  }

  async list(zone: string, limit: number, before?: number): Promise<HistoryEntry[]> {
    const rows = await this.db.sql<HistoryRow[]>`
      SELECT id, zone, serial_from, serial_to, actor, summary, changes, reverts, created_at
      FROM dns_history WHERE zone = ${zone} AND id < ${before ?? Number.MAX_SAFE_INTEGER}
      ORDER BY id DESC LIMIT ${limit}`;
    return rows.map(toEntry);
  }

  async get(zone: string, id: number): Promise<HistoryEntry | undefined> {
    const [r] = await this.db.sql<HistoryRow[]>`
      SELECT id, zone, serial_from, serial_to, actor, summary, changes, reverts, created_at
      FROM dns_history WHERE zone = ${zone} AND id = ${id}`;
    return r && toEntry(r);
  }

  async after(zone: string, id: number): Promise<HistoryEntry[]> {
    const rows = await this.db.sql<HistoryRow[]>`
      SELECT id, zone, serial_from, serial_to, actor, summary, changes, reverts, created_at
      FROM dns_history WHERE zone = ${zone} AND id > ${id} ORDER BY id`;
    return rows.map(toEntry);
  }

  async trim(zone: string, keep: number): Promise<void> {
    await this.db.sql`
      DELETE FROM dns_history WHERE zone = ${zone} AND id < (
        SELECT MIN(id) FROM (
          SELECT id FROM dns_history WHERE zone = ${zone} ORDER BY id DESC LIMIT ${keep}) AS kept)`;
  }
}
