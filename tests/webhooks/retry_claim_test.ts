/**
 * Two processes over one store never send the same stored attempt
 * (docs/webhooks.md, "Retries across restarts"): two deliverers — two
 * instances of a PostgreSQL cluster, or two timers — poll the same due retry
 * at once; the receiver gets it once and the log has one row. On SQLite and
 * on PostgreSQL (tests/contract/engines.ts).
 */
import { assertEquals } from "../assert.ts";
import { systemClock } from "../../lib/clock.ts";
import { WEBHOOK_DEFAULTS } from "../../lib/config/webhook_options.ts";
import { silentLogger } from "../../lib/log/log.ts";
import { WebhookDeliverer } from "../../lib/webhooks/delivery.ts";
import { PgWebhookRepo } from "../../lib/webhooks/pg_webhook_repo.ts";
import { PgWebhookRetryRepo } from "../../lib/webhooks/pg_webhook_retry_repo.ts";
import { SqliteWebhookRepo, type WebhookRepo } from "../../lib/webhooks/webhook_repo.ts";
import {
  SqliteWebhookRetryRepo,
  type WebhookRetryRepo,
} from "../../lib/webhooks/webhook_retry_repo.ts";
import { type Engine, repoContract } from "../contract/engines.ts";
import { startReceiver } from "./receiver.ts";

const SETTINGS = { ...WEBHOOK_DEFAULTS, allowLocal: true };

function deliverer(
  e: Engine,
): { d: WebhookDeliverer; repo: WebhookRepo; retries: WebhookRetryRepo } {
  const { repo, retries } = e.pick<{ repo: WebhookRepo; retries: WebhookRetryRepo }>({
    sqlite: (db) => ({ repo: new SqliteWebhookRepo(db), retries: new SqliteWebhookRetryRepo(db) }),
    postgres: (db) => ({ repo: new PgWebhookRepo(db), retries: new PgWebhookRetryRepo(db) }),
  });
  const d = new WebhookDeliverer({
    repo,
    retries,
    transactor: e.transactor,
    settings: SETTINGS,
    clock: systemClock,
    log: silentLogger,
  });
  return { d, repo, retries };
}

repoContract("WebhookDeliverer claims", {
  "two deliverers polling one due retry at once send it once": async (e) => {
    await using receiver = startReceiver(200);
    const a = deliverer(e);
    const b = deliverer(e);
    const now = Date.now();
    await a.repo.insert({
      id: "h1",
      url: receiver.url,
      events: ["zone.changed"],
      secret: "whsec_h1",
      previousSecret: null,
      previousSecretUntil: null,
      enabled: true,
      createdAt: now,
      updatedAt: now,
      createdBy: "admin",
    });
    await a.retries.add({
      id: "r1",
      webhookId: "h1",
      eventId: "ev1",
      eventType: "zone.changed",
      body: '{"id":"ev1","type":"zone.changed","time":"2026-01-01T00:00:00.000Z","data":{}}',
      attempt: 2,
      firstAt: now - 1000,
      dueAt: now,
    });
    try {
      await Promise.all([a.d.poll(), b.d.poll(), a.d.poll(), b.d.poll()]);
      await receiver.waitFor(1);
      const end = Date.now() + 5000;
      while ((await a.repo.deliveries("h1", 10)).length < 1 && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 20));
      }
      // Time for a second send, had a second timer claimed the attempt too.
      await new Promise((r) => setTimeout(r, 500));
      assertEquals(receiver.requests.length, 1);
      assertEquals(
        (await a.repo.deliveries("h1", 10)).map((d) => [d.eventId, d.attempt, d.status]),
        [["ev1", 2, "delivered"]],
      );
      assertEquals(await a.retries.due(now + 60_000, Date.now(), 10), []);
    } finally {
      a.d.stop();
      b.d.stop();
    }
  },
});
