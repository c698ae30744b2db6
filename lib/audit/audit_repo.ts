/**
 * The `audit` table: appends, filtered pages and the list of event types.
 * The table itself refuses changes and deletions (a trigger on both
 * engines), so this repository has no way to alter a record. Ported to both
 * engines (docs/architecture.md, "Repositories"): the PostgreSQL twin is
 * `pg_audit_repo.ts`.
 */
import type { PageWindow } from "../paging.ts";
import type { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import type { AuditInput, AuditMatch } from "./audit.ts";

/** One stored record; `at` is Unix milliseconds. */
export interface StoredAudit extends AuditInput {
  id: number;
  at: number;
}

export interface AuditRepo {
  /** Appends one record and returns its id. */
  append(entry: AuditInput, at: number): Promise<number>;
  /** The records matching `match` in `window`, newest first (by id, descending). */
  rows(match: AuditMatch, window: PageWindow): Promise<StoredAudit[]>;
  /** How many records match. */
  count(match: AuditMatch): Promise<number>;
  /** Distinct event types, sorted by code point. */
  eventTypes(): Promise<string[]>;
}

/**
 * The synchronous append the domains not yet ported still call inside their
 * synchronous SQLite transactions (it goes with the last of them).
 */
export interface SyncAuditAppend {
  appendNow(entry: AuditInput, at: number): number;
}

export class SqliteAuditRepo implements AuditRepo, SyncAuditAppend {
  constructor(private readonly db: SqliteAsync) {}

  appendNow(entry: AuditInput, at: number): number {
    return insert(this.db.store, entry, at);
  }

  append(entry: AuditInput, at: number): Promise<number> {
    return this.db.run((store) => insert(store, entry, at));
  }

  rows(match: AuditMatch, w: PageWindow): Promise<StoredAudit[]> {
    const { clause, params } = matchSql(match, w.after?.[0] as number | undefined);
    return this.db.run((store) =>
      store.all<StoredAudit>(
        `SELECT id, at, actor, event_type, message, resource_type, resource_id FROM audit ${clause}
       ORDER BY id DESC LIMIT ? OFFSET ?`,
        ...params,
        w.limit ?? -1,
        w.offset,
      )
    );
  }

  count(match: AuditMatch): Promise<number> {
    const { clause, params } = matchSql(match);
    return this.db.run((store) =>
      store.get<{ n: number }>(`SELECT count(*) AS n FROM audit ${clause}`, ...params)!.n
    );
  }

  eventTypes(): Promise<string[]> {
    return this.db.run((store) =>
      store.all<{ event_type: string }>(
        "SELECT DISTINCT event_type FROM audit ORDER BY event_type",
      ).map((r) => r.event_type)
    );
  }
}

function insert(store: Store, entry: AuditInput, at: number): number {
  return store.run(
    "INSERT INTO audit (at, actor, event_type, message, resource_type, resource_id) VALUES (?, ?, ?, ?, ?, ?)",
    at,
    entry.actor,
    entry.event_type,
    entry.message,
    entry.resource_type,
    entry.resource_id,
  ).lastInsertRowid;
}

/** The WHERE clause of `match`, and below the id `before` (a keyset cursor) when given. */
function matchSql(
  match: AuditMatch,
  before?: number,
): { clause: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  for (const [column, op, value] of matchTerms(match, before)) {
    where.push(`${column} ${op} ?`);
    params.push(value);
  }
  return { clause: where.length ? `WHERE ${where.join(" AND ")}` : "", params };
}

/** The filter's terms as (column, operator, value); both engines build their WHERE from them. */
export function matchTerms(
  match: AuditMatch,
  before?: number,
): [string, "=" | ">=" | "<", string | number][] {
  const terms: [string, "=" | ">=" | "<", string | number | undefined][] = [
    ["event_type", "=", match.event_type],
    ["resource_type", "=", match.resource_type],
    ["resource_id", "=", match.resource_id],
    ["actor", "=", match.actor],
    ["at", ">=", match.since],
    ["at", "<", match.until],
    ["id", "<", before],
  ];
  return terms.filter((t): t is [string, "=" | ">=" | "<", string | number] =>
    t[2] !== undefined && t[2] !== ""
  );
}
