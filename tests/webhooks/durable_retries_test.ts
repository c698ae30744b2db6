/**
 * Webhook retries survive a restart (docs/webhooks.md, "Retries across
 * restarts"): a delivery whose first attempt failed is retried by the next
 * server over the same SQLite file, with the same event id and a signature
 * the receiver verifies with node:crypto; a retry whose bound passed while
 * the server was stopped is not sent, and the log says so.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Clock } from "../../lib/clock.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { startReceiver } from "./receiver.ts";
import { verifies } from "./verify.ts";

const ENV = {
  PALISADE_WEBHOOK_ALLOW_LOCAL: "true",
  // Long enough that the first server is stopped before the retry is due.
  PALISADE_WEBHOOK_RETRY_BASE_MS: "3000",
  PALISADE_WEBHOOK_MAX_ATTEMPTS: "3",
  PALISADE_WEBHOOK_RETRY_MAX_TOTAL_MS: "60000",
};

async function logOf(t: TestServer, id: string) {
  return (await t.services.webhooks.deliveries(id)).map((d) => [d.attempt, d.status, d.error]);
}

/** Waits (bounded) until the subscription's log has `n` rows. */
async function logRows(t: TestServer, id: string, n: number): Promise<void> {
  const end = Date.now() + 10_000;
  while ((await t.services.webhooks.deliveries(id)).length < n) {
    if (Date.now() > end) throw new Error(`Log of "${id}" has fewer than ${n} rows`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A first server makes a failing first attempt and stops; answers the hook and its secret. */
async function failThenStop(dataDir: string, url: string): Promise<{ id: string; secret: string }> {
  const t = await startTestServer({ env: ENV, dataDir });
  try {
    const hook = await t.services.webhooks.create("admin", { url, events: ["zone.changed"] });
    await t.services.dns.createZone("admin", {
      name: "example.org",
      admin_email: "hostmaster@example.org",
    });
    await logRows(t, hook.id, 1);
    return { id: hook.id, secret: hook.secret };
  } finally {
    await t.close();
  }
}

Deno.test("webhooks: a retry pending at a restart is sent by the next server over the same store, same event id, valid signature", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-hooks-" });
  await using receiver = startReceiver(500);
  const { id, secret } = await failThenStop(dataDir, receiver.url);
  assertEquals(receiver.requests.length, 1, "one attempt before the restart");

  receiver.status = 200;
  await using t = await startTestServer({ env: ENV, dataDir });
  await receiver.waitFor(2, 15_000);
  const [first, second] = receiver.requests;
  const sig = (r: typeof first) => r.headers.get("palisade-signature") ?? "";
  assert(verifies(second.body, sig(second), secret), "the retry's signature verifies");
  assertEquals(JSON.parse(second.body).id, JSON.parse(first.body).id, "the same event id");
  assertEquals(second.body, first.body, "the same body");
  await logRows(t, id, 2);
  assertEquals(await logOf(t, id), [
    [2, "delivered", null],
    [1, "retrying", "Receiver answered 500"],
  ]);
  // Delivered: nothing more comes (the next wait would have been 6 s; the poll runs every 3 s).
  await new Promise((r) => setTimeout(r, 3500));
  assertEquals(receiver.requests.length, 2);
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("webhooks: a retry whose bound passed while the server was stopped is not sent after the restart, and the log says so", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-hooks-" });
  await using receiver = startReceiver(500);
  const { id } = await failThenStop(dataDir, receiver.url);
  receiver.status = 200;
  // The next server starts ten minutes later, past PALISADE_WEBHOOK_RETRY_MAX_TOTAL_MS (one minute).
  const later: Clock = { now: () => Date.now() + 600_000 };
  await using t = await startTestServer({ env: ENV, dataDir, clock: later });
  await logRows(t, id, 2);
  const [ended] = await logOf(t, id);
  assertEquals([ended[0], ended[1]], [2, "failed"]);
  assert(/past the retry bound/.test(String(ended[2])), `the log says why: ${ended[2]}`);
  await new Promise((r) => setTimeout(r, 500));
  assertEquals(receiver.requests.length, 1, "the retry was not sent");
  await Deno.remove(dataDir, { recursive: true });
});
