/**
 * The reconcile page over HTTP, on a host kept in memory (MemoryDriver):
 * drift made behind Palisade's back is listed per interface as missing on
 * the host, extra on the host or differing (stored and live values, a sign
 * and words); a viewer sees it and no Apply control and is refused the
 * apply page; an operator confirms, the POST applies and the page says In
 * sync; a host failure is a refusal on the confirmation page.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { formError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { MemoryDriver } from "../helpers/memory_driver.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { keys } from "../../lib/tunnel/keys.ts";

const ENV = { PALISADE_HOST_POLL_MS: "3600000" };

/** wg1 with peers a and b, then on the host: b removed, a stray peer added, the MTU changed. */
async function drifted(t: TestServer, driver: MemoryDriver) {
  const { tunnels } = t.services;
  const iface = await tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/24", mtu: 1400 },
    "test",
  );
  const [a, b] = await tunnels.peers.createMany(iface.id, [{ name: "a" }, { name: "b" }], "test");
  const stray = (await keys()).publicKey;
  const live = driver.live.get("wg1")!;
  live.peers.delete(b.public_key);
  live.peers.set(stray, { ...live.peers.get(a.public_key)!, publicKey: stray });
  live.mtu = 1300;
  return { iface, a, b, stray };
}

Deno.test("the reconcile page lists a removed peer, a stray peer and another MTU under their interface; a viewer gets no Apply control", async () => {
  const driver = new MemoryDriver();
  await using t = await startTestServer({ driver, env: ENV });
  await t.services.tunnels.interfaces.create({ name: "wg0", address_v4: "10.7.0.1/24" }, "test");
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");
  const clean = await getPage(t, "/reconcile", cookie);
  assertEquals(clean.status, 200);
  assertStringIncludes(clean.html, "In sync");
  assert(!clean.html.includes("<table"), "no diff table when in sync");

  const { b, stray } = await drifted(t, driver);
  const { status, html } = await getPage(t, "/reconcile", cookie);
  assertEquals(status, 200);
  assert(!html.includes("In sync"));
  assertStringIncludes(
    html,
    "3 differences between the stored state and the host: 1 missing on the host, 1 extra on the host, 1 differs.",
  );
  assertStringIncludes(html, '<h2 id="drift-wg1">Interface wg1</h2>');
  assert(!html.includes("drift-wg0"), "an interface in sync has no section");
  assertEquals(
    rowText(html, "data-kind", "peer_missing"),
    `+ Missing on the host Peer b ${b.public_key} present absent add the peer`,
  );
  assertEquals(
    rowText(html, "data-kind", "peer_unexpected"),
    `− Extra on the host Peer Unknown peer ${stray} absent present remove the peer`,
  );
  assertEquals(rowText(html, "data-kind", "mtu"), "~ Differs MTU 1400 1300 set the MTU");
  // The sign is decoration; the words say it.
  assertStringIncludes(html, '<span class="drift-sign" aria-hidden="true">+</span>');

  assert(!html.includes("/reconcile/apply"), "a viewer sees no Apply link");
  assert(!/<form\b[^>]*method="post"(?![^>]*action="\/logout")/i.test(html), "no POST form");
  assertEquals((await getPage(t, "/reconcile/apply", cookie)).status, 403);
  const refused = await postForm(t, "/reconcile/apply", {}, cookie);
  assertEquals(refused.status, 403);
  await refused.body?.cancel();
  assertEquals(driver.live.get("wg1")!.peers.has(b.public_key), false, "nothing applied");
});

Deno.test("an operator confirms on /reconcile/apply: the page lists the changes, the POST applies them and /reconcile says In sync", async () => {
  const driver = new MemoryDriver();
  await using t = await startTestServer({ driver, env: ENV });
  const { b, stray } = await drifted(t, driver);
  await t.addUser("olga", "operator");
  const cookie = await t.login("olga", "olga-password-123");
  const plan = await getPage(t, "/reconcile", cookie);
  assertStringIncludes(plan.html, 'href="/reconcile/apply"');

  const confirm = await getPage(t, "/reconcile/apply", cookie);
  assertEquals(confirm.status, 200);
  for (const line of ["wg1: add the peer (peer b)", "wg1: remove the peer", "wg1: set the MTU"]) {
    assertStringIncludes(confirm.html, `<li>${line}</li>`);
  }
  assertStringIncludes(confirm.html, ">Apply to the host</button>");
  assertEquals(driver.live.get("wg1")!.mtu, 1300, "asking changes nothing");

  const res = await postForm(t, "/reconcile/apply", {}, cookie);
  assertEquals([res.status, res.headers.get("location")], [303, "/reconcile?done=applied"]);
  const live = driver.live.get("wg1")!;
  assertEquals([live.peers.has(b.public_key), live.peers.has(stray), live.mtu], [
    true,
    false,
    1400,
  ]);
  const audit = await t.services.audit.list({
    event_type: "reconcile.applied",
    limit: 5,
    offset: 0,
  });
  assertEquals(audit.records.map((r) => r.actor), ["olga"]);

  const after = await getPage(t, "/reconcile?done=applied", cookie);
  assertStringIncludes(
    after.html,
    "Reconcile applied and verified: the host matches the stored state.",
  );
  assertStringIncludes(after.html, "In sync");
  assert(!after.html.includes("data-kind="), "no difference left");
  assert(!after.html.includes('href="/reconcile/apply"'), "nothing to apply");
});

Deno.test("a host failure during apply is a refusal on the confirmation page, not a stack trace", async () => {
  const driver = new MemoryDriver();
  await using t = await startTestServer({ driver, env: ENV });
  await drifted(t, driver);
  const cookie = await t.login();
  driver.failing.add("sync");
  const res = await postForm(t, "/reconcile/apply", {}, cookie);
  assertEquals(res.status, 500);
  const html = await res.text();
  // RecordingDriver's failure names the call: the sync of wg1 with its 2 stored peers.
  assertEquals(
    formError(html),
    'Reconcile could not apply every change: "wg1": sync wg1 2 failed',
  );
  assert(!/\bat .*\.ts:\d+/.test(html), "no stack frame in the page");
  assertStringIncludes(html, ">Apply to the host</button>", "the question is asked again");
});

Deno.test("with the host layer off the reconcile page says so and offers no Apply", async () => {
  await using t = await startTestServer();
  await t.services.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "test");
  const cookie = await t.login();
  const { status, html } = await getPage(t, "/reconcile", cookie);
  assertEquals(status, 200);
  assertStringIncludes(html, "Host layer off");
  assert(!html.includes("In sync"));
  assert(!html.includes('href="/reconcile/apply"'));
  const res = await postForm(t, "/reconcile/apply", {}, cookie);
  assertEquals(res.headers.get("location"), "/reconcile?done=host_off");
  await res.body?.cancel();
  assertStringIncludes(
    (await getPage(t, "/reconcile?done=host_off", cookie)).html,
    "Nothing applied: the host layer is off.",
  );
});
