/**
 * The webhook repository (lib/webhooks/webhook_repo.ts, pg_webhook_repo.ts)
 * behaves the same on SQLite and PostgreSQL: a subscription reads back with
 * its events and secret, listings newest first, updates, the delivery log
 * newest first and bounded per subscription, deletion taking the log along,
 * a secret rotation keeping the replaced secret with its time, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import {
  type DeliveryRecord,
  SqliteWebhookRepo,
  type WebhookRecord,
  type WebhookRepo,
} from "../../lib/webhooks/webhook_repo.ts";
import { PgWebhookRepo } from "../../lib/webhooks/pg_webhook_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine): WebhookRepo =>
  e.pick<WebhookRepo>({
    sqlite: (db) => new SqliteWebhookRepo(db),
    postgres: (db) => new PgWebhookRepo(db),
  });

const hook = (id: string, createdAt: number): WebhookRecord => ({
  id,
  url: `https://hooks.example/${id}`,
  events: ["zone.changed", "peer.changed"],
  secret: `whsec_${id}`,
  previousSecret: null,
  previousSecretUntil: null,
  enabled: true,
  createdAt,
  updatedAt: createdAt,
  createdBy: "admin",
});

const attempt = (id: string, webhookId: string, at: number, n: number): DeliveryRecord => ({
  id,
  webhookId,
  eventId: "ev1",
  eventType: "zone.changed",
  attempt: n,
  status: n === 3 ? "failed" : "retrying",
  responseCode: n === 2 ? null : 500,
  error: n === 2 ? "No answer within 10000 ms" : null,
  at,
});

repoContract("WebhookRepo", {
  "a subscription reads back whole; listings are newest first, ties by id descending": async (
    e,
  ) => {
    const hooks = repoOf(e);
    assertEquals(await hooks.byId("h1"), undefined);
    await hooks.insert(hook("h1", 100));
    await hooks.insert({ ...hook("h3", 300), enabled: false });
    await hooks.insert(hook("h2", 300));
    assertEquals(await hooks.byId("h1"), hook("h1", 100));
    assertEquals((await hooks.byId("h3"))?.enabled, false);
    assertEquals((await hooks.list()).map((h) => h.id), ["h3", "h2", "h1"]);
  },
  "update changes URL, events and flag; the secret stays": async (e) => {
    const hooks = repoOf(e);
    await hooks.insert(hook("h1", 100));
    const change = { url: "http://10.0.0.5/x", events: ["peer.connected"], enabled: false };
    assertEquals(await hooks.update("h1", { ...change, updatedAt: 200 }), true);
    assertEquals(await hooks.update("nope", { ...change, updatedAt: 200 }), false);
    assertEquals(await hooks.byId("h1"), { ...hook("h1", 100), ...change, updatedAt: 200 });
  },
  "rotating keeps the replaced secret until the given time; a second rotation drops the older one":
    async (e) => {
      const hooks = repoOf(e);
      await hooks.insert(hook("h1", 100));
      await hooks.insert(hook("h2", 100));
      assertEquals(await hooks.rotateSecret("h1", "whsec_new", 5000, 200), true);
      assertEquals(await hooks.rotateSecret("nope", "whsec_x", 5000, 200), false);
      assertEquals(await hooks.byId("h1"), {
        ...hook("h1", 100),
        secret: "whsec_new",
        previousSecret: "whsec_h1",
        previousSecretUntil: 5000,
        updatedAt: 200,
      });
      await hooks.rotateSecret("h1", "whsec_newer", 9000, 300);
      const again = await hooks.byId("h1");
      assertEquals(
        [again?.secret, again?.previousSecret, again?.previousSecretUntil],
        ["whsec_newer", "whsec_new", 9000],
      );
      assertEquals(await hooks.byId("h2"), hook("h2", 100));
    },
  "the delivery log is newest first and keeps the newest rows per subscription": async (e) => {
    const hooks = repoOf(e);
    await hooks.insert(hook("h1", 100));
    await hooks.insert(hook("h2", 100));
    await hooks.addDelivery(attempt("d1", "h1", 1000, 1), 2);
    await hooks.addDelivery(attempt("x1", "h2", 1000, 1), 2);
    await hooks.addDelivery(attempt("d2", "h1", 2000, 2), 2);
    assertEquals(await hooks.deliveries("h1", 10), [
      attempt("d2", "h1", 2000, 2),
      attempt("d1", "h1", 1000, 1),
    ]);
    await hooks.addDelivery(attempt("d3", "h1", 2000, 3), 2);
    assertEquals((await hooks.deliveries("h1", 10)).map((d) => d.id), ["d3", "d2"]);
    assertEquals((await hooks.deliveries("h1", 1)).map((d) => d.id), ["d3"]);
    assertEquals((await hooks.deliveries("h2", 10)).map((d) => d.id), ["x1"]);
  },
  "delete removes the subscription and its log": async (e) => {
    const hooks = repoOf(e);
    await hooks.insert(hook("h1", 100));
    await hooks.addDelivery(attempt("d1", "h1", 1000, 1), 10);
    assertEquals(await hooks.delete("h1"), true);
    assertEquals(await hooks.delete("h1"), false);
    assertEquals(await e.raw("SELECT id FROM webhook_deliveries"), []);
    await assertRejects(() => hooks.addDelivery(attempt("d2", "h1", 2000, 1), 10));
  },
  "a subscription inserted in a transaction that throws is not kept": async (e) => {
    const hooks = repoOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await hooks.insert(hook("h1", 100));
        throw new Error("Rolled back");
      })
    );
    assertEquals(await hooks.list(), []);
  },
});
