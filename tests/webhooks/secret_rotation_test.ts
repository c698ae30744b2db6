/**
 * Rotating a webhook's signing secret (docs/webhooks.md, "Rotating the
 * secret"): the new secret is answered once; during the grace each delivery
 * carries one signature per secret and a receiver verifying with node:crypto
 * accepts it with either; after the grace only the new one signs. Neither
 * secret is listed or audited. The dashboard asks first and shows the new
 * secret once.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { apiClient } from "../helpers/api_client.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { type Received, startReceiver } from "./receiver.ts";
import { parseSignature, verifies } from "./verify.ts";

const GRACE_MS = 3_600_000;
const ENV = {
  PALISADE_WEBHOOK_ALLOW_LOCAL: "true",
  PALISADE_WEBHOOK_SECRET_GRACE_MS: String(GRACE_MS),
};

const header = (r: Received) => r.headers.get("palisade-signature") ?? "";

Deno.test("webhooks: after a rotation deliveries verify with the new and the old secret during the grace, with the new one only after it", async () => {
  const clock = new ManualClock(Date.now());
  const nowS = () => clock.now() / 1000;
  await using receiver = startReceiver(200);
  await using t = await startTestServer({ env: ENV, clock });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const made = await api.post("/webhooks", { url: receiver.url, events: ["zone.changed"] });
  assertEquals(made.status, 201);
  const id = made.body.id as string;
  const oldSecret = made.body.secret as string;

  const rotated = await api.post(`/webhooks/${id}/rotate-secret`);
  assertEquals(rotated.status, 200, JSON.stringify(rotated.body));
  const newSecret = rotated.body.secret as string;
  assert(/^whsec_/.test(newSecret), "the new secret is answered");
  assertNotEquals(newSecret, oldSecret);
  assertEquals(rotated.body.id, id);
  assertEquals(
    Date.parse(rotated.body.previous_secret_valid_until as string),
    clock.now() + GRACE_MS,
  );
  assertEquals((await api.post("/webhooks/no-such-hook/rotate-secret")).status, 404);

  // During the grace: two v1 values, the new secret's first; either secret verifies.
  assertEquals((await api.post(`/webhooks/${id}/test`)).body.status, "delivered");
  await receiver.waitFor(1);
  const during = receiver.requests[0];
  assertEquals(parseSignature(header(during)).v1.length, 2);
  assert(verifies(during.body, header(during), newSecret, nowS()), "the new secret verifies");
  assert(verifies(during.body, header(during), oldSecret, nowS()), "the old secret verifies");
  assert(!verifies(during.body, header(during), "whsec_other", nowS()), "another does not");

  // After the grace: the new secret only.
  clock.advance(GRACE_MS + 1000);
  assertEquals((await api.post(`/webhooks/${id}/test`)).body.status, "delivered");
  await receiver.waitFor(2);
  const after = receiver.requests[1];
  assertEquals(parseSignature(header(after)).v1.length, 1);
  assert(verifies(after.body, header(after), newSecret, nowS()), "the new secret verifies");
  assert(!verifies(after.body, header(after), oldSecret, nowS()), "the old one no longer does");

  const listed = JSON.stringify([
    (await api.get("/webhooks")).body,
    (await api.get(`/webhooks/${id}`)).body,
  ]);
  const audit = JSON.stringify((await api.get("/audit?limit=100")).body);
  assert(audit.includes("webhook.secret_rotated"), "the rotation is audited");
  for (const secret of [oldSecret, newSecret]) {
    assert(!listed.includes(secret) && !audit.includes(secret), "no secret listed or audited");
  }
});

Deno.test("webhooks page: rotating the secret asks first, then shows the new secret once; it signs deliveries", async () => {
  await using receiver = startReceiver(200);
  await using t = await startTestServer({ env: ENV });
  const admin = await t.login();
  const hook = await t.services.webhooks.create("admin", {
    url: receiver.url,
    events: ["zone.changed"],
  });
  const page = await getPage(t, `/webhooks/${hook.id}`, admin);
  assert(page.html.includes(`href="/webhooks/${hook.id}/rotate-secret"`), "the page links it");
  const ask = await getPage(t, `/webhooks/${hook.id}/rotate-secret`, admin);
  assertEquals(ask.status, 200);
  assert(ask.html.includes("Rotate secret"), "a confirmation is asked");
  assertEquals((await t.services.webhooks.sendTest("admin", hook.id)).status, "delivered");
  assert(verifies(receiver.requests[0].body, header(receiver.requests[0]), hook.secret));

  const res = await postForm(t, `/webhooks/${hook.id}/rotate-secret`, {}, admin);
  assertEquals(res.status, 200);
  const html = await res.text();
  const secret = /<pre id="new-webhook-secret">(whsec_[^<]+)<\/pre>/.exec(html)?.[1];
  assert(secret && secret !== hook.secret, "the new secret is on the answer");
  assert(!html.includes(hook.secret), "the old secret is not shown");
  assert(!(await getPage(t, `/webhooks/${hook.id}`, admin)).html.includes(secret));
  await t.services.webhooks.sendTest("admin", hook.id);
  await receiver.waitFor(2);
  const r = receiver.requests[1];
  assert(verifies(r.body, header(r), secret) && verifies(r.body, header(r), hook.secret));

  await t.addUser("olga", "operator", "operator password 123");
  const operator = await t.login("olga", "operator password 123");
  assertEquals((await postForm(t, `/webhooks/${hook.id}/rotate-secret`, {}, operator)).status, 403);
});
