/**
 * The `webhooks` and `webhook_deliveries` tables (migrations 20 and 28):
 * webhook subscriptions with their signing secret (and, after a rotation, the
 * previous one during its grace), and each subscription's delivery log. Both engines (docs/architecture.md, "Repositories"): the PostgreSQL
 * twin is `pg_webhook_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** A stored subscription; times are Unix milliseconds. */
export interface WebhookRecord {
  id: string;
  url: string;
  /** Event types it receives (event_types.ts). */
  events: string[];
  /** Signs each delivery; kept in clear for that, never listed. */
  secret: string;
  /** The secret a rotation replaced: it still signs until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
  /** Username of the administrator who made it. */
  createdBy: string;
}

export type WebhookChange = Pick<WebhookRecord, "url" | "events" | "enabled" | "updatedAt">;

export type DeliveryStatus = "delivered" | "retrying" | "failed";

/** One attempt of one delivery. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  /** The delivery's id: the same on every attempt (the body's `id`). */
  eventId: string;
  eventType: string;
  /** 1 for the first attempt. */
  attempt: number;
  status: DeliveryStatus;
  /** The receiver's HTTP status; null when none came (refused, timeout). */
  responseCode: number | null;
  error: string | null;
  at: number;
}

export interface WebhookRepo {
  insert(w: WebhookRecord): Promise<void>;
  /** The subscription `id`; undefined when absent. */
  byId(id: string): Promise<WebhookRecord | undefined>;
  /** Every subscription, newest first (then by id, descending). */
  list(): Promise<WebhookRecord[]>;
  /** Changes URL, events and enabled flag; false when there was none. */
  update(id: string, change: WebhookChange): Promise<boolean>;
  /**
   * Replaces the secret; the one replaced keeps signing until `previousUntil`
   * (a rotation during a grace drops the older one). False when there was none.
   */
  rotateSecret(
    id: string,
    secret: string,
    previousUntil: number,
    updatedAt: number,
  ): Promise<boolean>;
  /** Removes the subscription and its log; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Adds an attempt to the log, then keeps only the subscription's `keep` newest rows. */
  addDelivery(d: DeliveryRecord, keep: number): Promise<void>;
  /** The subscription's log, newest first (time, then attempt, then id, descending). */
  deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]>;
}

/** Rows as both engines return them. */
export interface WebhookRow {
  id: string;
  url: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  enabled: number;
  created_at: number;
  updated_at: number;
  created_by: string;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_code: number | null;
  error: string | null;
  at: number;
}

export const toWebhook = (r: WebhookRow): WebhookRecord => ({
  id: r.id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretUntil: r.previous_secret_until === null ? null : Number(r.previous_secret_until),
  enabled: Number(r.enabled) === 1,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  createdBy: r.created_by,
});

export const toDelivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  attempt: Number(r.attempt),
  status: r.status as DeliveryStatus,
  responseCode: r.response_code === null ? null : Number(r.response_code),
  error: r.error,
  at: Number(r.at),
});

const HOOK_COLUMNS =
  "id, url, events, secret, previous_secret, previous_secret_until, enabled, created_at, updated_at, created_by";
const LOG_COLUMNS =
  "id, webhook_id, event_id, event_type, attempt, status, response_code, error, at";

export class SqliteWebhookRepo implements WebhookRepo {
  constructor(private readonly db: SqliteAsync) {}

  insert(w: WebhookRecord): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO webhooks (${HOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        w.id,
        w.url,
        JSON.stringify(w.events),
        w.secret,
        w.previousSecret,
        w.previousSecretUntil,
        w.enabled ? 1 : 0,
        w.createdAt,
        w.updatedAt,
        w.createdBy,
      );
    });
  }

  byId(id: string): Promise<WebhookRecord | undefined> {
    return this.db.run((store) => {
      const r = store.get<WebhookRow>(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE id = ?`, id);
      return r && toWebhook(r);
    });
  }

  list(): Promise<WebhookRecord[]> {
    return this.db.run((store) =>
      store.all<WebhookRow>(
        `SELECT ${HOOK_COLUMNS} FROM webhooks ORDER BY created_at DESC, id DESC`,
      ).map(toWebhook)
    );
  }

  update(id: string, c: WebhookChange): Promise<boolean> {
    return this.db.run((store) =>
      store.run(
        "UPDATE webhooks SET url = ?, events = ?, enabled = ?, updated_at = ? WHERE id = ?",
        c.url,
        JSON.stringify(c.events),
        c.enabled ? 1 : 0,
        c.updatedAt,
        id,
      ).changes > 0
    );
  }

  rotateSecret(id: string, secret: string, previousUntil: number, at: number): Promise<boolean> {
    return this.db.run((store) =>
      store.run(
        `UPDATE webhooks SET previous_secret = secret, previous_secret_until = ?, secret = ?,
           updated_at = ? WHERE id = ?`,
        previousUntil,
        secret,
        at,
        id,
      ).changes > 0
    );
  }

  delete(id: string): Promise<boolean> {
    return this.db.run((store) => store.run("DELETE FROM webhooks WHERE id = ?", id).changes > 0);
  }

  addDelivery(d: DeliveryRecord, keep: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO webhook_deliveries (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        d.id,
        d.webhookId,
        d.eventId,
        d.eventType,
        d.attempt,
        d.status,
        d.responseCode,
        d.error,
        d.at,
      );
      store.run(
        `DELETE FROM webhook_deliveries WHERE webhook_id = ? AND id NOT IN (
           SELECT id FROM webhook_deliveries WHERE webhook_id = ?
           ORDER BY at DESC, attempt DESC, id DESC LIMIT ?)`,
        d.webhookId,
        d.webhookId,
        keep,
      );
    });
  }

  deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    return this.db.run((store) =>
      store.all<DeliveryRow>(
        `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ?
         ORDER BY at DESC, attempt DESC, id DESC LIMIT ?`,
        webhookId,
        limit,
      ).map(toDelivery)
    );
  }
}
