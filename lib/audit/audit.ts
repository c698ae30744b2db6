/**
 * The append-only audit trail. `record()` writes inside the caller's
 * transaction and publishes an `AuditEvent` only after that transaction
 * commits. Messages must never carry a secret: callers name things, they do
 * not dump request bodies.
 */
import type { Clock } from "../clock.ts";
import { isoTime } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import type { Store } from "../store/store.ts";

export interface AuditInput {
  actor: string;
  event_type: string;
  message: string;
  resource_type: string;
  resource_id: string;
}

export interface AuditRecord extends AuditInput {
  id: number;
  time: string;
}

export interface AuditFilter {
  event_type?: string;
  resource_type?: string;
  resource_id?: string;
  actor?: string;
  /** Inclusive lower bound, ms. */
  since?: number;
  /** Exclusive upper bound, ms. */
  until?: number;
  limit: number;
  offset: number;
}

export interface AuditPage {
  records: AuditRecord[];
  total: number;
  limit: number;
  offset: number;
}

interface AuditRow extends AuditInput {
  id: number;
  at: number;
}

function toRecord(r: AuditRow): AuditRecord {
  return {
    id: r.id,
    time: isoTime(r.at),
    actor: r.actor,
    event_type: r.event_type,
    message: r.message,
    resource_type: r.resource_type,
    resource_id: r.resource_id,
  };
}

export class AuditLog {
  constructor(
    private readonly store: Store,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  /** Appends one record; its `AuditEvent` goes out once the surrounding transaction commits. */
  record(input: AuditInput): AuditRecord {
    const at = this.clock.now();
    const { lastInsertRowid } = this.store.run(
      "INSERT INTO audit (at, actor, event_type, message, resource_type, resource_id) VALUES (?, ?, ?, ?, ?, ?)",
      at,
      input.actor,
      input.event_type,
      input.message,
      input.resource_type,
      input.resource_id,
    );
    const rec = toRecord({ ...input, id: lastInsertRowid, at });
    this.store.afterCommit(() => this.events.emit("AuditEvent", { ...rec, id: String(rec.id) }));
    return rec;
  }

  /** Newest first, filtered and paginated. */
  list(filter: AuditFilter): AuditPage {
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
    const rows = this.store.all<AuditRow>(
      `SELECT * FROM audit ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`,
      ...params,
      filter.limit,
      filter.offset,
    );
    return { records: rows.map(toRecord), total, limit: filter.limit, offset: filter.offset };
  }

  /** Distinct event types seen so far, for filter menus. */
  eventTypes(): string[] {
    return this.store.all<{ event_type: string }>(
      "SELECT DISTINCT event_type FROM audit ORDER BY event_type",
    ).map((r) => r.event_type);
  }
}
