/**
 * The stored webhook retries (lib/webhooks/webhook_retry_repo.ts,
 * pg_webhook_retry_repo.ts) behave the same on SQLite and PostgreSQL: due
 * retries soonest first and bounded, an attempt claimed once (a second claim,
 * a stale attempt number or a gone row refused; an expired lease taken
 * over), rescheduling letting the claim go, removal, rows going with their
 * subscription, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgWebhookRepo } from "../../lib/webhooks/pg_webhook_repo.ts";
import { PgWebhookRetryRepo } from "../../lib/webhooks/pg_webhook_retry_repo.ts";
import { SqliteWebhookRepo, type WebhookRepo } from "../../lib/webhooks/webhook_repo.ts";
import {
  type PendingRetry,
  SqliteWebhookRetryRepo,
  type WebhookRetryRepo,
} from "../../lib/webhooks/webhook_retry_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

async function reposOf(e: Engine): Promise<{ hooks: WebhookRepo; retries: WebhookRetryRepo }> {
  const r = e.pick<{ hooks: WebhookRepo; retries: WebhookRetryRepo }>({
    sqlite: (db) => ({ hooks: new SqliteWebhookRepo(db), retries: new SqliteWebhookRetryRepo(db) }),
    postgres: (db) => ({ hooks: new PgWebhookRepo(db), retries: new PgWebhookRetryRepo(db) }),
  });
  for (const id of ["h1", "h2"]) {
    await r.hooks.insert({
      id,
      url: `https://hooks.example/${id}`,
      events: ["zone.changed"],
      secret: `whsec_${id}`,
      previousSecret: null,
      previousSecretUntil: null,
      enabled: true,
      createdAt: 1,
      updatedAt: 1,
      createdBy: "admin",
    });
  }
  return r;
}

const retry = (id: string, webhookId: string, dueAt: number, attempt = 2): PendingRetry => ({
  id,
  webhookId,
  eventId: `ev-${id}`,
  eventType: "zone.changed",
  body: `{"id":"ev-${id}","type":"zone.changed"}`,
  attempt,
  firstAt: 100,
  dueAt,
});

repoContract("WebhookRetryRepo", {
  "due retries read back whole, soonest first, bounded, none due later": async (e) => {
    const { retries } = await reposOf(e);
    await retries.add(retry("r2", "h1", 2000));
    await retries.add(retry("r1", "h2", 1000));
    await retries.add(retry("r3", "h1", 9000));
    assertEquals(await retries.due(5000, 500, 10), [
      retry("r1", "h2", 1000),
      retry("r2", "h1", 2000),
    ]);
    assertEquals((await retries.due(5000, 500, 1)).map((r) => r.id), ["r1"]);
    assertEquals(await retries.due(999, 500, 10), []);
  },
  "an attempt is claimed once; a stale attempt or a gone row is refused; a lapsed lease is taken over":
    async (e) => {
      const { retries } = await reposOf(e);
      await retries.add(retry("r1", "h1", 1000));
      assertEquals(await retries.claim("r1", 3, 1000, 5000), false);
      assertEquals(await retries.claim("r1", 2, 1000, 5000), true);
      assertEquals(await retries.claim("r1", 2, 1001, 6000), false);
      // A held retry is not due to anyone else until its lease lapses.
      assertEquals(await retries.due(10_000, 4000, 10), []);
      assertEquals((await retries.due(10_000, 5000, 10)).map((r) => r.id), ["r1"]);
      assertEquals(await retries.claim("r1", 2, 5000, 9000), true);
      await retries.reschedule("r1", 3, 7000);
      assertEquals(await retries.due(10_000, 5001, 10), [{ ...retry("r1", "h1", 7000, 3) }]);
      assertEquals(await retries.claim("r1", 2, 7000, 9000), false);
      assertEquals(await retries.claim("r1", 3, 7000, 9000), true);
      await retries.remove("r1");
      assertEquals(await retries.claim("r1", 3, 20_000, 30_000), false);
      assertEquals(await retries.due(99_999, 99_999, 10), []);
    },
  "a subscription's retries are removed and answered soonest first, held ones too; others stay":
    async (e) => {
      const { retries } = await reposOf(e);
      await retries.add(retry("r2", "h1", 3000));
      await retries.add(retry("r1", "h1", 2000, 3));
      await retries.add(retry("r3", "h2", 1000));
      assertEquals(await retries.claim("r2", 2, 3000, 9000), true);
      assertEquals(await retries.removeForWebhook("h1"), [
        retry("r1", "h1", 2000, 3),
        retry("r2", "h1", 3000),
      ]);
      assertEquals(await retries.claim("r2", 2, 10_000, 20_000), false);
      assertEquals((await retries.due(99_999, 99_999, 10)).map((r) => r.id), ["r3"]);
      assertEquals(await retries.removeForWebhook("h1"), []);
    },
  "retries go with their subscription; one added in a rolled-back transaction is not kept": async (
    e,
  ) => {
    const { hooks, retries } = await reposOf(e);
    await retries.add(retry("r1", "h1", 1000));
    await retries.add(retry("r2", "h2", 1000));
    await hooks.delete("h1");
    assertEquals((await retries.due(5000, 0, 10)).map((r) => r.id), ["r2"]);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await retries.add(retry("r3", "h2", 1000));
        throw new Error("Rolled back");
      })
    );
    assertEquals((await retries.due(5000, 0, 10)).map((r) => r.id), ["r2"]);
  },
});
