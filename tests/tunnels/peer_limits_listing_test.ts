/**
 * The compact `limits` object of GET /peers, GET /interfaces/{id}/peers and
 * GET /peers/{id} (docs/peer_lifecycle.md, "In the peer object"): a limited
 * peer shows its expiry, days left, quota, usage of the period, the period's
 * end and the reason Palisade disabled it; a peer without limits shows null.
 * An accounting pass announces the changed usage as `PeerUsage`.
 */
import { assertEquals } from "../assert.ts";
import { counterRead } from "../helpers/live_counters.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { ManualClock } from "../../lib/clock.ts";
import type { BusEvent } from "../../lib/events/bus.ts";
import { isRelayed } from "../../lib/events/relay_frames.ts";

Deno.test("peer listings and the peer object carry a compact limits object, null for a peer without limits", async () => {
  const clock = new ManualClock(Date.parse("2026-03-20T12:00:00Z"));
  await using t = await startTestServer({ clock });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = await api.post("/interfaces", { name: "wg9", address_v4: "10.61.0.1/24" });
  assertEquals(iface.status, 201, JSON.stringify(iface.body));
  const a = (await api.post(`/interfaces/${iface.body.id}/peers`, { name: "alpha" })).body;
  const b = (await api.post(`/interfaces/${iface.body.id}/peers`, { name: "bravo" })).body;
  const set = await api.put(`/peers/${a.id}/limits`, {
    quota_bytes: 1_000_000,
    expires_at: "2026-03-25T00:00:00Z",
  });
  assertEquals(set.status, 200, JSON.stringify(set.body));
  const enforcer = t.services.tunnels.limitEnforcer;
  await enforcer.account(counterRead(a.public_key, 100, 100)); // the baseline
  await enforcer.account(counterRead(a.public_key, 3_100, 1_100));

  const expected = {
    expires_at: "2026-03-25T00:00:00.000Z",
    days_left: 5,
    quota_bytes: 1_000_000,
    used_bytes: 4_000,
    period_end: "2026-04-01T00:00:00.000Z",
    disabled_reason: null,
  };
  const list = await api.get("/peers");
  assertEquals(list.status, 200, JSON.stringify(list.body));
  const byName = new Map(list.body.peers.map((p: { name: string }) => [p.name, p]));
  assertEquals((byName.get("alpha") as { limits: unknown }).limits, expected);
  assertEquals((byName.get("bravo") as { limits: unknown }).limits, null);

  const one = await api.get(`/peers/${a.id}`);
  assertEquals(one.status, 200);
  assertEquals(one.body.limits, expected);
  assertEquals((await api.get(`/peers/${b.id}`)).body.limits, null);

  const paged = await api.get(`/interfaces/${iface.body.id}/peers?limit=1`);
  assertEquals(paged.body.peers.map((p: { limits: unknown }) => p.limits), [expected]);

  // Over the quota: disabled, and the reason shows in the listing.
  await enforcer.account(counterRead(a.public_key, 1_003_100, 1_100));
  const after = (await api.get(`/peers/${a.id}`)).body;
  assertEquals(after.status, "disabled");
  assertEquals(after.limits.used_bytes, 1_004_000);
  assertEquals(after.limits.disabled_reason, "quota_reached");
});

Deno.test("an accounting pass announces the changed usage as one relayed PeerUsage event, nothing when nothing changed", async () => {
  const clock = new ManualClock(Date.parse("2026-03-20T12:00:00Z"));
  await using t = await startTestServer({ clock });
  const { tunnels } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg9", address_v4: "10.61.0.1/24" }, "t");
  const a = await tunnels.peers.create(iface.id, { name: "alpha" }, "t");
  await tunnels.limits.set(
    a.id,
    { quota_bytes: 1_000_000, expires_at: "2026-03-23T00:00:00Z" },
    "t",
  );
  const events: BusEvent["payload"][] = [];
  t.services.events.subscribe((e) => {
    if (e.type === "PeerUsage") events.push(e.payload);
  });
  const enforcer = tunnels.limitEnforcer;

  await enforcer.account(counterRead(a.public_key, 100, 100));
  assertEquals(events.length, 0, "the baseline read changes no usage");
  await enforcer.account(counterRead(a.public_key, 600, 300));
  assertEquals(events, [{
    peers: [{ id: a.id, used_bytes: 700, quota_bytes: 1_000_000, days_left: 3 }],
  }]);
  await enforcer.account(counterRead(a.public_key, 600, 300));
  assertEquals(events.length, 1, "the same counters read again announce nothing");
  assertEquals(isRelayed("PeerUsage"), true, "every instance's dashboards show it");
});
