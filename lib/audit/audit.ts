/**
 * The append-only audit trail. `record()` writes inside the caller's
 * transaction and publishes an `AuditEvent` only after that transaction
 * commits. Messages must never carry a secret: callers name things, they do
 * not dump request bodies.
 */
import type { Clock } from "../clock.ts";
import { isoTime } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import { paginate } from "../paging.ts";
import type { Transactor } from "../store/transactor.ts";
import type { AuditRepo, StoredAudit } from "./audit_repo.ts";

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
  /** Records to skip; not with `cursor`. */
  offset?: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string;
}

/** What the filter narrows the trail to, without the page. */
export type AuditMatch = Omit<AuditFilter, "limit" | "offset" | "cursor">;

export interface AuditPage {
  records: AuditRecord[];
  total: number;
  limit: number;
  offset: number;
  next_cursor: string | null;
}

function toRecord(r: StoredAudit): AuditRecord {
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
  readonly #repo: AuditRepo;
  readonly #transactor: Transactor;
  readonly #events: EventBus;
  readonly #clock: Clock;

  constructor(repo: AuditRepo, transactor: Transactor, events: EventBus, clock: Clock) {
    this.#repo = repo;
    this.#transactor = transactor;
    this.#events = events;
    this.#clock = clock;
  }

  /** Appends one record; its `AuditEvent` goes out once the surrounding transaction commits. */
  record(input: AuditInput): AuditRecord {
    const at = this.#clock.now();
    const id = this.#repo.append(input, at);
    const rec = toRecord({ ...input, id, at });
    this.#transactor.afterCommit(() =>
      this.#events.emit("AuditEvent", { ...rec, id: String(rec.id) })
    );
    return rec;
  }

  /**
   * Newest first, filtered and paginated. The cursor is keyset on the id:
   * records written during a walk sort before its first page, so every record
   * older than the walk is served exactly once.
   */
  list(filter: AuditFilter): AuditPage {
    const { limit, offset, cursor, ...match } = filter;
    const { items, total, next_cursor } = paginate<StoredAudit>({ limit, offset, cursor }, {
      kind: "audit",
      shape: ["n"],
      keyOf: (r) => [r.id],
      rows: (w) => this.#repo.rows(match, w),
      count: () => this.#repo.count(match),
    });
    return { records: items.map(toRecord), total, limit, offset: offset ?? 0, next_cursor };
  }

  /** Distinct event types seen so far, for filter menus. */
  eventTypes(): string[] {
    return this.#repo.eventTypes();
  }
}
