/**
 * Webhook subscriptions (docs/webhooks.md): create with a secret shown once,
 * rotate it (the new one shown once, the old one signing too for a grace),
 * list and read without it, change URL, events and enabled flag, delete, read
 * the delivery log, send a test. URLs are checked (url_guard.ts) when saved
 * and again before every attempt. Audit records name the target's host only:
 * a webhook URL's path often works as a credential (chat services), and the
 * secret never leaves the store except as signatures.
 */
import type { AuditLog } from "../audit/audit.ts";
import { randomToken } from "../auth/secret.ts";
import { type Clock, isoTime } from "../clock.ts";
import type { WebhookSettings } from "../config/webhook_options.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { WebhookDeliverer } from "./delivery.ts";
import { TEST_EVENT, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event_types.ts";
import { checkTarget, parseWebhookUrl, type Resolver, systemResolver } from "./url_guard.ts";
import type { DeliveryRecord, WebhookRecord, WebhookRepo } from "./webhook_repo.ts";

/** A subscription as listed: never its secret. */
export interface WebhookInfo {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
  created_by: string;
}

export interface WebhookWithSecret extends WebhookInfo {
  /** Shown in the creation answer only. */
  secret: string;
}

/** The answer to a rotation: the new secret, shown in it only. */
export interface RotatedSecret extends WebhookWithSecret {
  /** Until when deliveries carry a signature with the previous secret too. */
  previous_secret_valid_until: string;
}

export interface DeliveryInfo {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_code: number | null;
  error: string | null;
  time: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  enabled?: boolean;
}

const newSecret = () => `whsec_${randomToken(32)}`;

const info = (r: WebhookRecord): WebhookInfo => ({
  id: r.id,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  created_at: isoTime(r.createdAt),
  updated_at: isoTime(r.updatedAt),
  created_by: r.createdBy,
});

const deliveryInfo = (d: DeliveryRecord): DeliveryInfo => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  attempt: d.attempt,
  status: d.status,
  response_code: d.responseCode,
  error: d.error,
  time: isoTime(d.at),
});

export class WebhookService {
  constructor(
    private readonly repo: WebhookRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
    private readonly deliverer: WebhookDeliverer,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** The checked URL and events of `input`; resolving the host is done here, before any transaction. */
  async #check(input: WebhookInput): Promise<{ url: string; events: WebhookEventType[] }> {
    const url = parseWebhookUrl(input.url);
    await checkTarget(url, this.settings.allowLocal, this.resolve);
    if (input.events.length === 0) {
      throw new ValidationError("Choose at least one event type", "events");
    }
    for (const [i, e] of input.events.entries()) {
      if (!WEBHOOK_EVENT_TYPES.includes(e as WebhookEventType)) {
        throw new ValidationError(`Unknown event type "${e}"`, `events[${i}]`);
      }
    }
    return { url: url.href, events: [...new Set(input.events)] as WebhookEventType[] };
  }

  async #record(id: string): Promise<WebhookRecord> {
    const row = await this.repo.byId(id);
    if (!row) throw new NotFoundError(`Webhook "${id}" does not exist`, "id");
    return row;
  }

  /** Makes a subscription; its secret is in this answer only. */
  async create(actor: string, input: WebhookInput): Promise<WebhookWithSecret> {
    const { url, events } = await this.#check(input);
    const now = this.clock.now();
    const record: WebhookRecord = {
      id: crypto.randomUUID(),
      url,
      events,
      secret: newSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      enabled: input.enabled ?? true,
      createdAt: now,
      updatedAt: now,
      createdBy: actor,
    };
    await this.transactor.tx(async () => {
      await this.repo.insert(record);
      await this.audit.add({
        actor,
        event_type: "webhook.created",
        message: `Created webhook to host "${new URL(url).host}" for ${events.join(", ")}`,
        resource_type: "webhook",
        resource_id: record.id,
      });
    });
    return { ...info(record), secret: record.secret };
  }

  async list(): Promise<WebhookInfo[]> {
    return (await this.repo.list()).map(info);
  }

  async get(id: string): Promise<WebhookInfo> {
    return info(await this.#record(id));
  }

  /** Changes URL, events and enabled flag; the secret stays. Disabling ends pending retries. */
  async update(actor: string, id: string, input: WebhookInput): Promise<WebhookInfo> {
    const current = await this.#record(id);
    const { url, events } = await this.#check(input);
    const change = { url, events, enabled: input.enabled ?? current.enabled };
    const updatedAt = this.clock.now();
    await this.transactor.tx(async () => {
      if (!(await this.repo.update(id, { ...change, updatedAt }))) {
        throw new NotFoundError(`Webhook "${id}" does not exist`, "id");
      }
      // Its pending retries stop now, so enabling it again does not resume them.
      if (!change.enabled) await this.deliverer.dropRetries(id);
      await this.audit.add({
        actor,
        event_type: "webhook.updated",
        message: `Updated webhook to host "${new URL(url).host}": ${
          change.enabled ? "enabled" : "disabled"
        }, ${events.join(", ")}`,
        resource_type: "webhook",
        resource_id: id,
      });
    });
    return info({ ...current, ...change, updatedAt });
  }

  /**
   * Replaces the signing secret; the new one is in this answer only. For
   * PALISADE_WEBHOOK_SECRET_GRACE_MS deliveries are signed with the old one
   * too, so receivers switch without losing events.
   */
  async rotateSecret(actor: string, id: string): Promise<RotatedSecret> {
    const current = await this.#record(id);
    const secret = newSecret();
    const now = this.clock.now();
    const until = now + this.settings.secretGraceMs;
    await this.transactor.tx(async () => {
      if (!(await this.repo.rotateSecret(id, secret, until, now))) {
        throw new NotFoundError(`Webhook "${id}" does not exist`, "id");
      }
      await this.audit.add({
        actor,
        event_type: "webhook.secret_rotated",
        message: `Rotated the secret of webhook to host "${
          new URL(current.url).host
        }"; the previous one signs too until ${isoTime(until)}`,
        resource_type: "webhook",
        resource_id: id,
      });
    });
    return {
      ...info({ ...current, updatedAt: now }),
      secret,
      previous_secret_valid_until: isoTime(until),
    };
  }

  async delete(actor: string, id: string): Promise<{ success: true; message: string }> {
    const current = await this.#record(id);
    await this.transactor.tx(async () => {
      await this.repo.delete(id);
      await this.audit.add({
        actor,
        event_type: "webhook.deleted",
        message: `Deleted webhook to host "${new URL(current.url).host}"`,
        resource_type: "webhook",
        resource_id: id,
      });
    });
    return { success: true, message: "Webhook deleted" };
  }

  /** The subscription's delivery log, newest first. */
  async deliveries(id: string, limit = 100): Promise<DeliveryInfo[]> {
    await this.#record(id);
    return (await this.repo.deliveries(id, limit)).map(deliveryInfo);
  }

  /**
   * Sends a `webhook.test` event now (enabled or not) and answers the first
   * attempt's log row; retries follow as for any delivery, none when the
   * subscription is disabled.
   */
  async sendTest(actor: string, id: string): Promise<DeliveryInfo> {
    const hook = await this.#record(id);
    const time = isoTime(this.clock.now());
    const event = {
      id: crypto.randomUUID(),
      type: TEST_EVENT,
      time,
      data: { webhook_id: id, requested_by: actor },
    } as const;
    return deliveryInfo(await this.deliverer.deliver(hook, event));
  }
}
