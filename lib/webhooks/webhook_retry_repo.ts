/**
 * The `webhook_retries` table (migration 27): deliveries waiting for their
 * next attempt, kept in the store so a restart does not lose them
 * (docs/webhooks.md, "Retries across restarts"). An attempt is taken with a
 * conditional UPDATE (a lease), so two instances of a PostgreSQL cluster
 * never send the same attempt. The PostgreSQL twin is
 * `pg_webhook_retry_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** A delivery's next attempt; times are Unix milliseconds. */
export interface PendingRetry {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** The exact JSON body sent on every attempt (the signature covers these bytes). */
  body: string;
  /** The number of the attempt to make next. */
  attempt: number;
  firstAt: number;
  dueAt: number;
}

export interface WebhookRetryRepo {
  add(r: PendingRetry): Promise<void>;
  /** Retries due by `before` that nobody holds at `now`, soonest first, at most `limit`. */
  due(before: number, now: number, limit: number): Promise<PendingRetry[]>;
  /**
   * Takes attempt `attempt` of retry `id` until `until`, unless another holds
   * it at `now` or it moved on or went; answers whether this caller has it.
   */
  claim(id: string, attempt: number, now: number, until: number): Promise<boolean>;
  /** Sets the next attempt and its time, and lets the claim go. */
  reschedule(id: string, attempt: number, dueAt: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** Removes every retry of the subscription; answers them (held ones too), soonest first. */
  removeForWebhook(webhookId: string): Promise<PendingRetry[]>;
}

export interface RetryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  body: string;
  attempt: number;
  first_at: number;
  due_at: number;
}

export const toRetry = (r: RetryRow): PendingRetry => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  body: r.body,
  attempt: Number(r.attempt),
  firstAt: Number(r.first_at),
  dueAt: Number(r.due_at),
});

/** RETURNING has no ORDER BY: the removed rows are sorted here. */
export const soonest = (a: PendingRetry, b: PendingRetry): number =>
  a.dueAt - b.dueAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const COLUMNS = "id, webhook_id, event_id, event_type, body, attempt, first_at, due_at";

export class SqliteWebhookRetryRepo implements WebhookRetryRepo {
  constructor(private readonly db: SqliteAsync) {}

  add(r: PendingRetry): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO webhook_retries (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        r.id,
        r.webhookId,
        r.eventId,
        r.eventType,
        r.body,
        r.attempt,
        r.firstAt,
        r.dueAt,
      );
    });
  }

  due(before: number, now: number, limit: number): Promise<PendingRetry[]> {
    return this.db.run((store) =>
      store.all<RetryRow>(
        `SELECT ${COLUMNS} FROM webhook_retries WHERE due_at <= ? AND claimed_until <= ?
         ORDER BY due_at, id LIMIT ?`,
        before,
        now,
        limit,
      ).map(toRetry)
    );
  }

  claim(id: string, attempt: number, now: number, until: number): Promise<boolean> {
    return this.db.run((store) =>
      store.run(
        `UPDATE webhook_retries SET claimed_until = ?
         WHERE id = ? AND attempt = ? AND claimed_until <= ?`,
        until,
        id,
        attempt,
        now,
      ).changes > 0
    );
  }

  reschedule(id: string, attempt: number, dueAt: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "UPDATE webhook_retries SET attempt = ?, due_at = ?, claimed_until = 0 WHERE id = ?",
        attempt,
        dueAt,
        id,
      );
    });
  }

  remove(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM webhook_retries WHERE id = ?", id);
    });
  }

  removeForWebhook(webhookId: string): Promise<PendingRetry[]> {
    return this.db.run((store) =>
      store.all<RetryRow>(
        `DELETE FROM webhook_retries WHERE webhook_id = ? RETURNING ${COLUMNS}`,
        webhookId,
      ).map(toRetry).sort(soonest)
    );
  }
}
