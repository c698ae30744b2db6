/**
 * The `audit` table: appends, filtered pages and the list of event types.
 * The table itself refuses changes and deletions (a trigger of migration 1),
 * so this repository has no way to alter a record.
 */
import type { Store } from "../store/store.ts";
import type { PageWindow } from "../paging.ts";
import type { AuditInput, AuditMatch } from "./audit.ts";

/** One stored record; `at` is Unix milliseconds. */
export interface StoredAudit extends AuditInput {
  id: number;
  at: number;
}

export interface AuditRepo {
  /** Appends one record and returns its id. */
  append(entry: AuditInput, at: number): number;
  /** The records matching `match` in `window`, newest first (by id, descending). */
  rows(match: AuditMatch, window: PageWindow): StoredAudit[];
  /** How many records match. */
  count(match: AuditMatch): number;
  /** Distinct event types, sorted. */
  eventTypes(): string[];
}

export class SqliteAuditRepo implements AuditRepo {
  constructor(private readonly store: Store) {}

  append(entry: AuditInput, at: number): number {
    return this.store.run(
      "INSERT INTO audit (at, actor, event_type, message, resource_type, resource_id) VALUES (?, ?, ?, ?, ?, ?)",
      at,
      entry.actor,
      entry.event_type,
      entry.message,
      entry.resource_type,
      entry.resource_id,
    ).lastInsertRowid;
  }

  rows(match: AuditMatch, w: PageWindow): StoredAudit[] {
    const { clause, params } = matchSql(match, w.after?.[0] as number | undefined);
    return this.store.all<StoredAudit>(
      `SELECT id, at, actor, event_type, message, resource_type, resource_id FROM audit ${clause}
       ORDER BY id DESC LIMIT ? OFFSET ?`,
      ...params,
      w.limit ?? -1,
      w.offset,
    );
  }

  count(match: AuditMatch): number {
    const { clause, params } = matchSql(match);
    return this.store.get<{ n: number }>(`SELECT count(*) AS n FROM audit ${clause}`, ...params)!.n;
  }

  eventTypes(): string[] {
    return this.store.all<{ event_type: string }>(
      "SELECT DISTINCT event_type FROM audit ORDER BY event_type",
    ).map((r) => r.event_type);
  }
}

/** The WHERE clause of `match`, and below the id `before` (a keyset cursor) when given. */
function matchSql(
  match: AuditMatch,
  before?: number,
): { clause: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const add = (sql: string, v: string | number | undefined) => {
    if (v !== undefined && v !== "") {
      where.push(sql);
      params.push(v);
    }
  };
  add("event_type = ?", match.event_type);
  add("resource_type = ?", match.resource_type);
  add("resource_id = ?", match.resource_id);
  add("actor = ?", match.actor);
  add("at >= ?", match.since);
  add("at < ?", match.until);
  add("id < ?", before);
  return { clause: where.length ? `WHERE ${where.join(" AND ")}` : "", params };
}
