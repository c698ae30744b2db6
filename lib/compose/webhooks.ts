/** The webhooks (docs/webhooks.md) over the engine in use: the service and the bus subscriber. */
import { pickRepo } from "../store/engine.ts";
import { WebhookDeliverer } from "../webhooks/delivery.ts";
import { PgWebhookRepo } from "../webhooks/pg_webhook_repo.ts";
import { PgWebhookRetryRepo } from "../webhooks/pg_webhook_retry_repo.ts";
import { startWebhookEvents } from "../webhooks/webhook_events.ts";
import { SqliteWebhookRepo, type WebhookRepo } from "../webhooks/webhook_repo.ts";
import { SqliteWebhookRetryRepo, type WebhookRetryRepo } from "../webhooks/webhook_retry_repo.ts";
import { WebhookService } from "../webhooks/webhook_service.ts";
import type { Common } from "./common.ts";

export function webhookServices(c: Common): { webhooks: WebhookService; stop(): void } {
  const repo = pickRepo<WebhookRepo>(c.engine, {
    sqlite: (db) => new SqliteWebhookRepo(db),
    postgres: (db) => new PgWebhookRepo(db),
  });
  const settings = c.config.webhooks;
  const retries = pickRepo<WebhookRetryRepo>(c.engine, {
    sqlite: (db) => new SqliteWebhookRetryRepo(db),
    postgres: (db) => new PgWebhookRetryRepo(db),
  });
  const deliverer = new WebhookDeliverer({
    repo,
    retries,
    transactor: c.engine.db,
    settings,
    clock: c.clock,
    log: c.log,
  });
  // Retries a stopped process left in the store are picked up from now on.
  deliverer.start();
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
