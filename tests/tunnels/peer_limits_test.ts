/**
 * Peer expiry and traffic quotas through the REST API and the enforcer
 * (docs/peer_lifecycle.md), on a manual clock, with host reads written by
 * hand: the counters add up, a used-up quota disables the peer (audit with
 * the reason, PeerQuotaReached, a webhook delivery), the next period
 * re-enables it unless it was changed by hand, and a passed expiry
 * disables the peer on the housekeeping step.
 */
import { assert, assertEquals } from "../assert.ts";
import { counterRead } from "../helpers/live_counters.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { ManualClock } from "../../lib/clock.ts";
import type { BusEvent } from "../../lib/events/bus.ts";
import { startReceiver } from "../webhooks/receiver.ts";

async function setup(t: TestServer) {
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = await api.post("/interfaces", { name: "wg9", address_v4: "10.61.0.1/24" });
  assertEquals(iface.status, 201, JSON.stringify(iface.body));
  const peer = await api.post(`/interfaces/${iface.body.id}/peers`, { name: "alpha" });
  assertEquals(peer.status, 201, JSON.stringify(peer.body));
  const events: BusEvent[] = [];
  t.services.events.subscribe((e) => events.push(e));
  return { api, peer: peer.body as { id: string; public_key: string }, events };
}

/** Read through the services: a session cookie expires when the manual clock jumps. */
const statusOf = async (t: TestServer, id: string) =>
  (await t.services.tunnels.peers.view(id)).status;
const limitsOf = (t: TestServer, id: string) => t.services.tunnels.limits.get(id);

const auditOf = async (t: TestServer, type: string, id: string) =>
  (await t.services.audit.list({ event_type: type, resource_id: id, limit: 10 })).records;

Deno.test("peer quota: counters add up across a counter reset, a used-up quota disables the peer with audit, event and webhook, the next month enables it again", async () => {
  await using receiver = startReceiver(200);
  const clock = new ManualClock(Date.parse("2026-03-30T12:00:00Z"));
  await using t = await startTestServer({ clock, env: { PALISADE_WEBHOOK_ALLOW_LOCAL: "true" } });
  const { api, peer, events } = await setup(t);
  const hook = await api.post("/webhooks", { url: receiver.url, events: ["peer.quota_reached"] });
  assertEquals(hook.status, 201, JSON.stringify(hook.body));

  const set = await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 10_000 });
  assertEquals(set.status, 200, JSON.stringify(set.body));
  assertEquals(set.body.quota_period, "monthly");
  assertEquals(set.body.period_start, "2026-03-01T00:00:00.000Z");
  assertEquals(set.body.period_end, "2026-04-01T00:00:00.000Z");
  const enforcer = t.services.tunnels.limitEnforcer;

  // The first read only sets the baseline: bytes moved before the quota do not count.
  await enforcer.account(counterRead(peer.public_key, 50_000, 20_000));
  assertEquals((await limitsOf(t, peer.id)).used_bytes, 0);
  await enforcer.account(counterRead(peer.public_key, 53_000, 21_000));
  assertEquals((await limitsOf(t, peer.id)).used_bytes, 4_000);
  // The same counters read again add nothing.
  await enforcer.account(counterRead(peer.public_key, 53_000, 21_000));
  assertEquals((await limitsOf(t, peer.id)).used_bytes, 4_000);
  // wireguard-go restarted: the counters start from zero and all of it is new.
  await enforcer.account(counterRead(peer.public_key, 2_500, 500));
  assertEquals((await limitsOf(t, peer.id)).used_bytes, 7_000);
  assertEquals(await statusOf(t, peer.id), "enabled");

  await enforcer.account(counterRead(peer.public_key, 5_000, 1_000));
  const after = await limitsOf(t, peer.id);
  assertEquals([after.used_bytes, after.disabled_reason], [10_000, "quota_reached"]);
  assertEquals(await statusOf(t, peer.id), "disabled");
  const audits = await auditOf(t, "peer.quota_reached", peer.id);
  assertEquals(audits.length, 1);
  assertEquals(audits[0].actor, "system");
  assert(audits[0].message.includes("quota_reached"), audits[0].message);
  assertEquals((await auditOf(t, "peer.disabled", peer.id)).length, 1);
  const ev = events.find((e) => e.type === "PeerQuotaReached");
  assertEquals(ev?.payload, {
    id: peer.id,
    interface_id: (await t.services.tunnels.peers.view(peer.id)).interface_id,
    name: "alpha",
    quota_bytes: 10_000,
    used_bytes: 10_000,
    period_start: "2026-03-01T00:00:00.000Z",
  });
  await receiver.waitFor(1);
  const body = JSON.parse(receiver.requests[0].body);
  assertEquals([body.type, body.data.id], ["peer.quota_reached", peer.id]);

  // Still March: the housekeeping step leaves it disabled.
  await enforcer.due();
  assertEquals(await statusOf(t, peer.id), "disabled");
  // April: a new period, the usage is zero and the peer is back.
  clock.set(Date.parse("2026-04-01T00:00:00Z"));
  await enforcer.due();
  assertEquals(await statusOf(t, peer.id), "enabled");
  const april = await limitsOf(t, peer.id);
  assertEquals([april.used_bytes, april.disabled_reason, april.period_start], [
    0,
    null,
    "2026-04-01T00:00:00.000Z",
  ]);
});

Deno.test("peer quota: a peer disabled by hand after the quota disabled it stays disabled at the period boundary", async () => {
  const clock = new ManualClock(Date.parse("2026-01-10T00:00:00Z"));
  await using t = await startTestServer({ clock });
  const { api, peer } = await setup(t);
  const set = await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 100, quota_period_days: 7 });
  assertEquals(set.body.period_end, "2026-01-17T00:00:00.000Z");
  const enforcer = t.services.tunnels.limitEnforcer;
  await enforcer.account(counterRead(peer.public_key, 0, 0));
  await enforcer.account(counterRead(peer.public_key, 80, 40));
  assertEquals(await statusOf(t, peer.id), "disabled");
  // The operator enables it (it is disabled again at once: still over quota) ...
  clock.advance(1000);
  await api.post(`/peers/${peer.id}/enable`, {});
  clock.advance(1000);
  await enforcer.due();
  // ... then disables it by hand.
  clock.advance(1000);
  assertEquals((await api.post(`/peers/${peer.id}/enable`, {})).status, 200);
  clock.advance(1000);
  assertEquals((await api.post(`/peers/${peer.id}/disable`, {})).status, 200);
  clock.set(Date.parse("2026-01-17T00:00:00Z"));
  await enforcer.due();
  assertEquals(await statusOf(t, peer.id), "disabled");
  assertEquals((await limitsOf(t, peer.id)).used_bytes, 0);
});

Deno.test("peer expiry: days left count down; at its expiry the housekeeping step disables the peer with audit and PeerExpired; a later expiry brings it back", async () => {
  const clock = new ManualClock(Date.parse("2026-05-01T00:00:00Z"));
  await using t = await startTestServer({ clock });
  const { api, peer, events } = await setup(t);
  const set = await api.put(`/peers/${peer.id}/limits`, { expires_at: "2026-05-11T00:00:00Z" });
  assertEquals(set.status, 200, JSON.stringify(set.body));
  assertEquals([set.body.expires_at, set.body.days_left], ["2026-05-11T00:00:00.000Z", 10]);
  clock.set(Date.parse("2026-05-10T23:59:59Z"));
  await t.services.tunnels.limitEnforcer.due();
  assertEquals(await statusOf(t, peer.id), "enabled");
  assertEquals((await limitsOf(t, peer.id)).days_left, 1);
  clock.set(Date.parse("2026-05-11T00:00:00Z"));
  await t.services.tunnels.limitEnforcer.due();
  assertEquals(await statusOf(t, peer.id), "disabled");
  assertEquals((await limitsOf(t, peer.id)).disabled_reason, "expired");
  assertEquals((await auditOf(t, "peer.expired", peer.id)).length, 1);
  assertEquals(events.find((e) => e.type === "PeerExpired")?.payload, {
    id: peer.id,
    interface_id: (await t.services.tunnels.peers.view(peer.id)).interface_id,
    name: "alpha",
    expires_at: "2026-05-11T00:00:00.000Z",
  });
  const later = await t.services.tunnels.limits.set(peer.id, {
    expires_at: "2026-06-01T00:00:00Z",
  }, "admin");
  assertEquals(later.disabled_reason, null);
  assertEquals(await statusOf(t, peer.id), "enabled");
});

Deno.test("peer limits API: an unknown peer is 404, a bad expiry is 400, DELETE removes the limits", async () => {
  await using t = await startTestServer();
  const { api, peer } = await setup(t);
  assertEquals((await api.get("/peers/nope/limits")).status, 404);
  assertEquals((await api.put("/peers/nope/limits", { quota_bytes: 5 })).status, 404);
  assertEquals((await api.put(`/peers/${peer.id}/limits`, { expires_at: "soon" })).status, 400);
  assertEquals((await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 0 })).status, 400);
  await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 5_000 });
  assertEquals((await api.del(`/peers/${peer.id}/limits`)).status, 200);
  assertEquals((await limitsOf(t, peer.id)).quota_bytes, null);
});
