/**
 * The `audit` table on PostgreSQL: the twin of `SqliteAuditRepo`. The id is
 * an identity column, returned by the insert; the append-only trigger is in
 * the baseline migration.
 */
import type { PageWindow } from "../paging.ts";
import type { PgAsync } from "../store/pg/pg_async.ts";
import type { AuditInput, AuditMatch } from "./audit.ts";
import { type AuditRepo, matchTerms, type StoredAudit } from "./audit_repo.ts";

export class PgAuditRepo implements AuditRepo {
  constructor(private readonly db: PgAsync) {}

  async append(e: AuditInput, at: number): Promise<number> {
    const [{ id }] = await this.db.sql<{ id: number }[]>`
      INSERT INTO audit (at, actor, event_type, message, resource_type, resource_id)
      VALUES (${at}, ${e.actor}, ${e.event_type}, ${e.message}, ${e.resource_type},
              ${e.resource_id})
      RETURNING id`;
    return id;
  }

  rows(match: AuditMatch, w: PageWindow): Promise<StoredAudit[]> {
    return this.db.sql<StoredAudit[]>`
      SELECT id, at, actor, event_type, message, resource_type, resource_id FROM audit
      WHERE ${this.#where(match, w.after?.[0] as number | undefined)}
      ORDER BY id DESC LIMIT ${w.limit ?? null} OFFSET ${w.offset}`;
  }

  async count(match: AuditMatch): Promise<number> {
    const [{ n }] = await this.db.sql<{ n: number }[]>`
      SELECT count(*) AS n FROM audit WHERE ${this.#where(match)}`;
    return n;
  }

  async eventTypes(): Promise<string[]> {
    const rows = await this.db.sql<{ event_type: string }[]>`
      SELECT DISTINCT event_type FROM audit ORDER BY event_type`;
    return rows.map((r) => r.event_type);
  }

  /** The filter as one fragment of bound values joined by AND (TRUE when empty). */
  #where(match: AuditMatch, before?: number) {
    const sql = this.db.sql;
    return matchTerms(match, before).reduce((acc, [column, op, value]) => {
      const col = sql(column);
      const term = op === "="
        ? sql`${col} = ${value}`
        : op === ">="
        ? sql`${col} >= ${value}`
        : sql`${col} < ${value}`;
      return sql`${acc} AND ${term}`;
    }, sql`TRUE`);
  }
}
