/**
 * The enforcer never re-enables a peer against an operator's explicit
 * disable (docs/peer_lifecycle.md, "A peer changed by hand stays as the
 * operator left it"), including a disable that finds the peer already
 * disabled by its quota and so changes no row of the peer.
 */
import { assertEquals } from "../assert.ts";
import { counterRead } from "../helpers/live_counters.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { ManualClock } from "../../lib/clock.ts";

Deno.test("peer quota: disabling by hand a peer its quota already disabled keeps it disabled at the period boundary", async () => {
  const clock = new ManualClock(Date.parse("2026-01-10T00:00:00Z"));
  await using t = await startTestServer({ clock });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = await api.post("/interfaces", { name: "wg9", address_v4: "10.62.0.1/24" });
  const peer = (await api.post(`/interfaces/${iface.body.id}/peers`, { name: "alpha" })).body;
  await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 100, quota_period_days: 7 });
  const enforcer = t.services.tunnels.limitEnforcer;
  await enforcer.account(counterRead(peer.public_key, 0, 0));
  await enforcer.account(counterRead(peer.public_key, 80, 40));
  assertEquals((await t.services.tunnels.peers.view(peer.id)).status, "disabled");
  clock.advance(1000);
  assertEquals((await api.post(`/peers/${peer.id}/disable`, {})).status, 200);
  clock.set(Date.parse("2026-01-17T00:00:00Z"));
  await enforcer.due();
  assertEquals((await t.services.tunnels.peers.view(peer.id)).status, "disabled");
  assertEquals((await t.services.tunnels.limits.get(peer.id)).disabled_reason, null);
});
