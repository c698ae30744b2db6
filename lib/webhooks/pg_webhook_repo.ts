/** The webhook tables on PostgreSQL: the twin of `SqliteWebhookRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type DeliveryRecord,
  type DeliveryRow,
  toDelivery,
  toWebhook,
  type WebhookChange,
  type WebhookRecord,
  type WebhookRepo,
  type WebhookRow,
} from "./webhook_repo.ts";

export class PgWebhookRepo implements WebhookRepo {
  constructor(private readonly db: PgAsync) {}

  async insert(w: WebhookRecord): Promise<void> {
    await this.db.sql`
      INSERT INTO webhooks (id, url, events, secret, previous_secret, previous_secret_until,
                            enabled, created_at, updated_at, created_by)
      VALUES (${w.id}, ${w.url}, ${JSON.stringify(w.events)}, ${w.secret}, ${w.previousSecret},
              ${w.previousSecretUntil}, ${w.enabled ? 1 : 0}, ${w.createdAt}, ${w.updatedAt},
              ${w.createdBy})`;
  }

  async byId(id: string): Promise<WebhookRecord | undefined> {
    const [r] = await this.db.sql<WebhookRow[]>`
      SELECT id, url, events, secret, previous_secret, previous_secret_until, enabled,
        created_at, updated_at, created_by
      FROM webhooks WHERE id = ${id}`;
    return r && toWebhook(r);
  }

  async list(): Promise<WebhookRecord[]> {
    const rows = await this.db.sql<WebhookRow[]>`
      SELECT id, url, events, secret, previous_secret, previous_secret_until, enabled,
        created_at, updated_at, created_by
      FROM webhooks ORDER BY created_at DESC, id DESC`;
    return rows.map(toWebhook);
  }

  async update(id: string, c: WebhookChange): Promise<boolean> {
    const res = await this.db.sql`
      UPDATE webhooks SET url = ${c.url}, events = ${JSON.stringify(c.events)},
        enabled = ${c.enabled ? 1 : 0}, updated_at = ${c.updatedAt}
      WHERE id = ${id}`;
    return res.count > 0;
  }

  async rotateSecret(
    id: string,
    secret: string,
    previousUntil: number,
    at: number,
  ): Promise<boolean> {
    const res = await this.db.sql`
      UPDATE webhooks SET previous_secret = secret, previous_secret_until = ${previousUntil},
        secret = ${secret}, updated_at = ${at}
      WHERE id = ${id}`;
    return res.count > 0;
  }

  async delete(id: string): Promise<boolean> {
    const res = await this.db.sql`DELETE FROM webhooks WHERE id = ${id}`;
    return res.count > 0;
  }

  async addDelivery(d: DeliveryRecord, keep: number): Promise<void> {
    await this.db.sql`
      INSERT INTO webhook_deliveries
        (id, webhook_id, event_id, event_type, attempt, status, response_code, error, at)
      VALUES (${d.id}, ${d.webhookId}, ${d.eventId}, ${d.eventType}, ${d.attempt}, ${d.status},
              ${d.responseCode}, ${d.error}, ${d.at})`;
    await this.db.sql`
      DELETE FROM webhook_deliveries WHERE webhook_id = ${d.webhookId} AND id NOT IN (
        SELECT id FROM webhook_deliveries WHERE webhook_id = ${d.webhookId}
        ORDER BY at DESC, attempt DESC, id DESC LIMIT ${keep})`;
  }

  async deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    const rows = await this.db.sql<DeliveryRow[]>`
      SELECT id, webhook_id, event_id, event_type, attempt, status, response_code, error, at
      FROM webhook_deliveries WHERE webhook_id = ${webhookId}
      ORDER BY at DESC, attempt DESC, id DESC LIMIT ${limit}`;
    return rows.map(toDelivery);
  }
}
