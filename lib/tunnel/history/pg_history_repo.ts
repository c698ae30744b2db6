/** The `tunnel_history` table on PostgreSQL: the twin of `SqliteTunnelHistoryRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type HistoryKind,
  type NewTunnelChange,
  stateJson,
  toChange,
  type TunnelChange,
  type TunnelChangeRow,
  type TunnelHistoryRepo,
} from "./history_repo.ts";

export class PgTunnelHistoryRepo implements TunnelHistoryRepo {
  constructor(private readonly db: PgAsync) {}

  async add(c: NewTunnelChange): Promise<number> {
    const [r] = await this.db.sql<{ id: number }[]>`
      INSERT INTO tunnel_history (kind, object_id, actor, summary, before_state, after_state,
                                  reverts, created_at)
      VALUES (${c.kind}, ${c.objectId}, ${c.actor}, ${c.summary}, ${stateJson(c.before)},
              ${stateJson(c.after)}, ${c.reverts}, ${c.createdAt})
      RETURNING id`;
    return Number(r.id);
  }

  async list(
    kind: HistoryKind,
    objectId: string,
    limit: number,
    before?: number,
  ): Promise<TunnelChange[]> {
    const rows = await this.db.sql<TunnelChangeRow[]>`
      SELECT id, kind, object_id, actor, summary, before_state, after_state, reverts, created_at
      FROM tunnel_history
      WHERE kind = ${kind} AND object_id = ${objectId} AND id < ${before ?? Number.MAX_SAFE_INTEGER}
      ORDER BY id DESC LIMIT ${limit}`;
    return rows.map(toChange);
  }

  async get(kind: HistoryKind, objectId: string, id: number): Promise<TunnelChange | undefined> {
    const [r] = await this.db.sql<TunnelChangeRow[]>`
      SELECT id, kind, object_id, actor, summary, before_state, after_state, reverts, created_at
      FROM tunnel_history WHERE kind = ${kind} AND object_id = ${objectId} AND id = ${id}`;
    return r && toChange(r);
  }

  async newer(kind: HistoryKind, objectId: string, id: number): Promise<TunnelChange | undefined> {
    const [r] = await this.db.sql<TunnelChangeRow[]>`
      SELECT id, kind, object_id, actor, summary, before_state, after_state, reverts, created_at
      FROM tunnel_history WHERE kind = ${kind} AND object_id = ${objectId} AND id > ${id}
      ORDER BY id LIMIT 1`;
    return r && toChange(r);
  }

  async deleted(kind: HistoryKind, limit: number): Promise<TunnelChange[]> {
    const rows = await this.db.sql<TunnelChangeRow[]>`
      SELECT id, kind, object_id, actor, summary, before_state, after_state, reverts, created_at
      FROM tunnel_history h WHERE kind = ${kind} AND after_state IS NULL
        AND id = (SELECT MAX(id) FROM tunnel_history n
                  WHERE n.kind = h.kind AND n.object_id = h.object_id)
      ORDER BY id DESC LIMIT ${limit}`;
    return rows.map(toChange);
  }

  async trim(kind: HistoryKind, objectId: string, keep: number): Promise<void> {
    await this.db.sql`
      DELETE FROM tunnel_history WHERE kind = ${kind} AND object_id = ${objectId} AND id < (
        SELECT MIN(id) FROM (
          SELECT id FROM tunnel_history WHERE kind = ${kind} AND object_id = ${objectId}
          ORDER BY id DESC LIMIT ${keep}) AS kept)`;
  }
}
