/**
 * The append-only audit trail. `add()` writes inside the caller's
 * transaction and publishes an `AuditEvent` only after that transaction
 * commits. Messages must never carry a secret: callers name things, they do
 * not dump request bodies.
 *
 * `record()` is the same write for the domains not yet ported to the
 * asynchronous repositories (docs/scaling.md): synchronous, over SQLite only,
 * inside their synchronous transactions. It goes with the last of them.
 */
import type { Clock } from "../clock.ts";
import { isoTime } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import { paginateAsync } from "../paging.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { Transactor } from "../store/transactor.ts";
import type { AuditRepo, StoredAudit, SyncAuditAppend } from "./audit_repo.ts";

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

/** The synchronous write of the domains not yet ported: SQLite only. */
export interface LegacyAudit {
  repo: SyncAuditAppend;
  transactor: Transactor;
}

export class AuditLog {
  readonly #repo: AuditRepo;
  readonly #transactor: AsyncTransactor;
  readonly #events: EventBus;
  readonly #clock: Clock;
  readonly #legacy: LegacyAudit | undefined;

  constructor(
    repo: AuditRepo,
    transactor: AsyncTransactor,
    events: EventBus,
    clock: Clock,
    legacy?: LegacyAudit,
  ) {
    this.#repo = repo;
    this.#transactor = transactor;
    this.#events = events;
    this.#clock = clock;
    this.#legacy = legacy;
  }

  /** Appends one record; its `AuditEvent` goes out once the surrounding transaction commits. */
  async add(input: AuditInput): Promise<AuditRecord> {
    const at = this.#clock.now();
    const id = await this.#repo.append(input, at);
    return this.#announce(toRecord({ ...input, id, at }), this.#transactor);
  }

  /**
   * `add()` for a synchronous transaction of a domain not yet ported; throws
   * on an engine without a synchronous write (PostgreSQL).
   */
  record(input: AuditInput): AuditRecord {
    if (!this.#legacy) throw new Error("The synchronous audit write exists on SQLite only");
    const at = this.#clock.now();
    const id = this.#legacy.repo.appendNow(input, at);
    return this.#announce(toRecord({ ...input, id, at }), this.#legacy.transactor);
  }

  #announce(rec: AuditRecord, tx: Pick<Transactor, "afterCommit">): AuditRecord {
    tx.afterCommit(() => this.#events.emit("AuditEvent", { ...rec, id: String(rec.id) }));
    return rec;
  }

  /**
   * Newest first, filtered and paginated. The cursor is keyset on the id:
   * records written during a walk sort before its first page, so every record
   * older than the walk is served exactly once.
   */
  async list(filter: AuditFilter): Promise<AuditPage> {
    const { limit, offset, cursor, ...match } = filter;
    const { items, total, next_cursor } = await paginateAsync<StoredAudit>(
      { limit, offset, cursor },
      {
        kind: "audit",
        shape: ["n"],
        keyOf: (r) => [r.id],
        rows: (w) => this.#repo.rows(match, w),
        count: () => this.#repo.count(match),
      },
    );
    return { records: items.map(toRecord), total, limit, offset: offset ?? 0, next_cursor };
  }

  /** Distinct event types seen so far, for filter menus. */
  eventTypes(): Promise<string[]> {
    return this.#repo.eventTypes();
  }
}
