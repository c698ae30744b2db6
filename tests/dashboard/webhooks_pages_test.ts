/**
 * The webhooks pages (`/webhooks`, administrators): a webhook made from the
 * form shows its secret on that answer only; its page sends a test whose
 * attempt lands in the delivery log; deletion asks first; viewers are refused.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { startReceiver } from "../webhooks/receiver.ts";

Deno.test("webhooks page: create with the secret shown once, send a test into the log, delete after a confirmation", async () => {
  await using receiver = startReceiver(200);
  await using t = await startTestServer({ env: { PALISADE_WEBHOOK_ALLOW_LOCAL: "true" } });
  const admin = await t.login();
  const made = await postForm(t, "/webhooks", {
    url: receiver.url,
    event_zone_changed: "true",
    event_peer_connected: "true",
  }, admin);
  assertEquals(made.status, 200);
  const html = await made.text();
  const secret = /<pre id="new-webhook-secret">(whsec_[^<]+)<\/pre>/.exec(html)?.[1];
  assert(secret, "the secret is on the answer");
  const [hook] = await t.services.webhooks.list();
  assertEquals(hook.events, ["zone.changed", "peer.connected"]);
  assertStringIncludes(rowText(html, "data-webhook-id", hook.id) ?? "", "enabled");

  const later = await getPage(t, "/webhooks", admin);
  assert(!later.html.includes(secret), "the secret is never shown again");
  const tested = await postForm(t, `/webhooks/${hook.id}`, { _action: "test" }, admin);
  assertEquals(tested.status, 200);
  const page = await tested.text();
  assertStringIncludes(page, "Test sent: delivered (200).");
  assertEquals(receiver.requests.length, 1);
  assert(!page.includes(secret));
  assertStringIncludes(page, "webhook.test");

  const refused = await postForm(t, "/webhooks", { url: "http://user:pw@hooks.example/" }, admin);
  assertEquals(refused.status, 400);

  const ask = await getPage(t, `/webhooks/${hook.id}/delete`, admin);
  assertEquals(ask.status, 200);
  const res = await postForm(t, `/webhooks/${hook.id}/delete`, {}, admin);
  assertEquals(res.status, 303);
  assertEquals(await t.services.webhooks.list(), []);

  await t.addUser("vera", "viewer", "viewer password 123");
  const viewer = await t.login("vera", "viewer password 123");
  assertEquals((await getPage(t, "/webhooks", viewer)).status, 403);
});
