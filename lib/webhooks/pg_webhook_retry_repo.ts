/** The `webhook_retries` table on PostgreSQL: the twin of `SqliteWebhookRetryRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type PendingRetry,
  type RetryRow,
  soonest,
  toRetry,
  type WebhookRetryRepo,
} from "./webhook_retry_repo.ts";

export class PgWebhookRetryRepo implements WebhookRetryRepo {
  constructor(private readonly db: PgAsync) {}

  async add(r: PendingRetry): Promise<void> {
    await this.db.sql`
      INSERT INTO webhook_retries
        (id, webhook_id, event_id, event_type, body, attempt, first_at, due_at)
      VALUES (${r.id}, ${r.webhookId}, ${r.eventId}, ${r.eventType}, ${r.body}, ${r.attempt},
              ${r.firstAt}, ${r.dueAt})`;
  }

  async due(before: number, now: number, limit: number): Promise<PendingRetry[]> {
    const rows = await this.db.sql<RetryRow[]>`
      SELECT id, webhook_id, event_id, event_type, body, attempt, first_at, due_at
      FROM webhook_retries WHERE due_at <= ${before} AND claimed_until <= ${now}
      ORDER BY due_at, id LIMIT ${limit}`;
    return rows.map(toRetry);
  }

  async claim(id: string, attempt: number, now: number, until: number): Promise<boolean> {
    const res = await this.db.sql`
      UPDATE webhook_retries SET claimed_until = ${until}
      WHERE id = ${id} AND attempt = ${attempt} AND claimed_until <= ${now}`;
    return res.count > 0;
  }

  async reschedule(id: string, attempt: number, dueAt: number): Promise<void> {
    await this.db.sql`
      UPDATE webhook_retries SET attempt = ${attempt}, due_at = ${dueAt}, claimed_until = 0
      WHERE id = ${id}`;
  }

  async remove(id: string): Promise<void> {
    await this.db.sql`DELETE FROM webhook_retries WHERE id = ${id}`;
  }

  async removeForWebhook(webhookId: string): Promise<PendingRetry[]> {
    const rows = await this.db.sql<RetryRow[]>`
      DELETE FROM webhook_retries WHERE webhook_id = ${webhookId}
      RETURNING id, webhook_id, event_id, event_type, body, attempt, first_at, due_at`;
    return rows.map(toRetry).sort(soonest);
  }
}
