/**
 * A subscription disabled or deleted after a failed attempt gets no retry
 * (docs/webhooks.md, "Deliveries and retries"): its pending retries stop,
 * the log says so, and enabling it again does not bring them back.
 */
import { assert, assertEquals } from "../assert.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { startReceiver } from "./receiver.ts";

const RETRY_MS = 800;
const ENV = {
  PALISADE_WEBHOOK_ALLOW_LOCAL: "true",
  PALISADE_WEBHOOK_RETRY_BASE_MS: String(RETRY_MS),
  PALISADE_WEBHOOK_MAX_ATTEMPTS: "4",
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

/** A subscription to a failing receiver whose first attempt failed and awaits its retry. */
async function failedOnce(t: TestServer, url: string) {
  const input = { url, events: ["zone.changed"] };
  const hook = await t.services.webhooks.create("admin", input);
  await t.services.dns.createZone("admin", {
    name: "example.org",
    admin_email: "hostmaster@example.org",
  });
  await logRows(t, hook.id, 1);
  assertEquals(await logOf(t, hook.id), [[1, "retrying", "Receiver answered 500"]]);
  return { id: hook.id, input };
}

/** Past the retry's time and the next poll of stored retries. */
const pastRetry = () => new Promise((r) => setTimeout(r, RETRY_MS * 3));

Deno.test("webhooks: disabling a subscription stops its pending retry, the log says so, and enabling it again does not resume it", async () => {
  await using receiver = startReceiver(500);
  await using t = await startTestServer({ env: ENV });
  const { id, input } = await failedOnce(t, receiver.url);

  await t.services.webhooks.update("admin", id, { ...input, enabled: false });
  // Enabled again before the retry was due: the retry stays stopped.
  await t.services.webhooks.update("admin", id, { ...input, enabled: true });
  await pastRetry();
  assertEquals(receiver.requests.length, 1, "no retry was sent");
  assertEquals(await logOf(t, id), [
    [2, "failed", "Not retried: the subscription is disabled"],
    [1, "retrying", "Receiver answered 500"],
  ]);
});

Deno.test("webhooks: deleting a subscription stops its pending retry", async () => {
  await using receiver = startReceiver(500);
  await using t = await startTestServer({ env: ENV });
  const { id } = await failedOnce(t, receiver.url);
  await t.services.webhooks.delete("admin", id);
  await pastRetry();
  assertEquals(receiver.requests.length, 1, "no retry was sent");
});

Deno.test("webhooks: a test event sent to a disabled subscription is not retried", async () => {
  await using receiver = startReceiver(500);
  await using t = await startTestServer({ env: ENV });
  const hook = await t.services.webhooks.create("admin", {
    url: receiver.url,
    events: ["zone.changed"],
    enabled: false,
  });
  const first = await t.services.webhooks.sendTest("admin", hook.id);
  assertEquals(first.status, "failed");
  assert(first.error?.includes("not retried: the subscription is disabled"), first.error ?? "");
  await pastRetry();
  assertEquals(receiver.requests.length, 1, "no retry was sent");
});
