/**
 * The `audit` table: appends, filtered pages and the list of event types.
 * The table itself refuses changes and deletions (a trigger of migration 1),
 * so this repository has no way to alter a record.
 */
import type { Store } from "../store/store.ts";
import type { AuditFilter, AuditInput } from "./audit.ts";

/** One stored record; `at` is Unix milliseconds. */
export interface StoredAudit extends AuditInput {
  id: number;
  at: number;
}

export interface AuditRepo {
  /** Appends one record and returns its id. */
  append(entry: AuditInput, at: number): number;
  /** The records matching `filter`, newest first, and how many match in all. */
  page(filter: AuditFilter): { rows: StoredAudit[]; total: number };
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

  page(filter: AuditFilter): { rows: StoredAudit[]; total: number } {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const eq = (col: string, v: string | undefined) => {
      if (v !== undefined && v !== "") {
        where.push(`${col} = ?`);
        params.push(v);
      }
    };
    eq("event_type", filter.event_type);
    eq("resource_type", filter.resource_type);
    eq("resource_id", filter.resource_id);
    eq("actor", filter.actor);
    if (filter.since !== undefined) {
      where.push("at >= ?");
      params.push(filter.since);
    }
    if (filter.until !== undefined) {
      where.push("at < ?");
      params.push(filter.until);
    }
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const total =
      this.store.get<{ n: number }>(`SELECT count(*) AS n FROM audit ${clause}`, ...params)!.n;
    const rows = this.store.all<StoredAudit>(
      `SELECT id, at, actor, event_type, message, resource_type, resource_id FROM audit ${clause}
       ORDER BY id DESC LIMIT ? OFFSET ?`,
      ...params,
      filter.limit,
      filter.offset,
    );
    return { rows, total };
  }

  eventTypes(): string[] {
    return this.store.all<{ event_type: string }>(
      "SELECT DISTINCT event_type FROM audit ORDER BY event_type",
    ).map((r) => r.event_type);
  }
}
