/** The webhooks (docs/webhooks.md) over the engine in use: the service and the bus subscriber. */
import { pickRepo } from "../store/engine.ts";
import { WebhookDeliverer } from "../webhooks/delivery.ts";
import { PgWebhookRepo } from "../webhooks/pg_webhook_repo.ts";
import { startWebhookEvents } from "../webhooks/webhook_events.ts";
import { SqliteWebhookRepo, type WebhookRepo } from "../webhooks/webhook_repo.ts";
import { WebhookService } from "../webhooks/webhook_service.ts";
import type { Common } from "./common.ts";

export function webhookServices(c: Common): { webhooks: WebhookService; stop(): void } {
  const repo = pickRepo<WebhookRepo>(c.engine, {
    sqlite: (db) => new SqliteWebhookRepo(db),
    postgres: (db) => new PgWebhookRepo(db),
  });
  const settings = c.config.webhooks;
  const deliverer = new WebhookDeliverer(repo, settings, c.clock, c.log);
  const webhooks = new WebhookService(repo, c.engine.db, c.audit, c.clock, settings, deliverer);
  const stopEvents = startWebhookEvents({ bus: c.events, repo, deliverer, settings, ...c });
  return {
    webhooks,
    stop() {
      stopEvents();
      deliverer.stop();
    },
  };
}
