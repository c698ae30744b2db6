/**
 * Webhook deliveries end to end (docs/webhooks.md): a receiver started here
 * gets signed deliveries it verifies with node:crypto (not with Palisade's
 * code), with a replay tolerance; a failing receiver gets retries that stop
 * after PALISADE_WEBHOOK_MAX_ATTEMPTS, each logged; the secret is shown once
 * and is in no listing or audit record.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { assert, assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { type Received, startReceiver } from "./receiver.ts";

const ENV = {
  PALISADE_WEBHOOK_ALLOW_LOCAL: "true",
  PALISADE_WEBHOOK_RETRY_BASE_MS: "100",
  PALISADE_WEBHOOK_MAX_ATTEMPTS: "3",
};

/** The receiver's side of verification, as docs/webhooks.md shows it. */
function verify(r: Received, secret: string, toleranceS = 300): Record<string, unknown> {
  const header = r.headers.get("palisade-signature") ?? "";
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2)));
  const t = Number(parts.t);
  assert(Math.abs(Date.now() / 1000 - t) <= toleranceS, `timestamp ${t} within tolerance`);
  const want = createHmac("sha256", secret).update(`${parts.t}.${r.body}`).digest();
  const got = Buffer.from(parts.v1 ?? "", "hex");
  assert(got.length === want.length && timingSafeEqual(got, want), "signature verifies");
  return JSON.parse(r.body);
}

Deno.test("webhooks: a receiver gets signed deliveries it verifies independently; send test; the secret is never listed or audited", async () => {
  await using receiver = startReceiver(200);
  await using t = await startTestServer({ env: ENV });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const made = await api.post("/webhooks", { url: receiver.url, events: ["zone.changed"] });
  assertEquals(made.status, 201, JSON.stringify(made.body));
  const secret = made.body.secret as string;
  assert(/^whsec_/.test(secret), "the secret is answered once");
  const id = made.body.id as string;

  await t.services.dns.createZone("admin", {
    name: "example.org",
    admin_email: "hostmaster@example.org",
  });
  await receiver.waitFor(1);
  const body = verify(receiver.requests[0], secret);
  assertEquals(body.type, "zone.changed");
  assertEquals((body.data as Record<string, unknown>).zone, "example.org");
  assert(typeof body.id === "string" && typeof body.time === "string");
  assertEquals(receiver.requests[0].headers.get("content-type"), "application/json");

  // A body changed in transit, or signed with another secret, does not verify.
  const forged = {
    ...receiver.requests[0],
    body: receiver.requests[0].body.replace("example", "exbmple"),
  };
  let refused = false;
  try {
    verify(forged, secret);
  } catch {
    refused = true;
  }
  assert(refused, "a changed body is refused");

  const test = await api.post(`/webhooks/${id}/test`);
  assertEquals(test.status, 200);
  assertEquals([test.body.status, test.body.response_code], ["delivered", 200]);
  await receiver.waitFor(2);
  assertEquals(verify(receiver.requests[1], secret).type, "webhook.test");

  const listing = JSON.stringify((await api.get("/webhooks")).body);
  assert(listing.includes(id) && !listing.includes(secret), "listed without its secret");
  assert(!JSON.stringify((await api.get(`/webhooks/${id}`)).body).includes(secret));
  const audit = await api.get("/audit?limit=100");
  const records = JSON.stringify(audit.body);
  assert(records.includes("webhook.created"), "the creation is audited");
  assert(!records.includes(secret), "the audit never holds the secret");
  assert(!records.includes(receiver.url), "the audit names the host, not the URL");
  const log = (await api.get(`/webhooks/${id}/deliveries`)).body.deliveries as Record<
    string,
    unknown
  >[];
  assertEquals(log.map((d) => [d.event_type, d.status, d.response_code]), [
    ["webhook.test", "delivered", 200],
    ["zone.changed", "delivered", 200],
  ]);
});

Deno.test("webhooks: a failing receiver gets retries with growing waits that stop after the bound, each attempt logged", async () => {
  await using failing = startReceiver(500);
  await using t = await startTestServer({ env: ENV });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const made = await api.post("/webhooks", { url: failing.url, events: ["zone.changed"] });
  assertEquals(made.status, 201);
  await t.services.dns.createZone("admin", {
    name: "example.net",
    admin_email: "hostmaster@example.net",
  });
  await failing.waitFor(3);
  // Longer than the next wait (4 × 100 ms) would be: no fourth attempt comes.
  await new Promise((r) => setTimeout(r, 1000));
  assertEquals(failing.requests.length, 3);
  const ids = failing.requests.map((r) => verify(r, made.body.secret as string).id);
  assertEquals(new Set(ids).size, 1, "every attempt carries the same id");
  const gaps = [1, 2].map((i) => failing.requests[i].at - failing.requests[i - 1].at);
  assert(gaps[0] >= 90 && gaps[1] >= 190, `waits grow: ${gaps}`);
  const log = (await api.get(`/webhooks/${made.body.id}/deliveries`)).body.deliveries as Record<
    string,
    unknown
  >[];
  assertEquals(log.map((d) => [d.attempt, d.status, d.response_code]), [
    [3, "failed", 500],
    [2, "retrying", 500],
    [1, "retrying", 500],
  ]);
});
