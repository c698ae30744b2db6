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
import type { TunnelContext } from "../../lib/tunnel/context.ts";
import { LimitEnforcer } from "../../lib/tunnel/lifecycle/enforce.ts";

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

Deno.test("peer quota: an operator's disable landing just before the enforcer's is not taken for the enforcer's own", async () => {
  const clock = new ManualClock(Date.parse("2026-01-10T00:00:00Z"));
  await using t = await startTestServer({ clock });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = await api.post("/interfaces", { name: "wg9", address_v4: "10.63.0.1/24" });
  const peer = (await api.post(`/interfaces/${iface.body.id}/peers`, { name: "alpha" })).body;
  await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 100, quota_period_days: 7 });
  const peers = t.services.tunnels.peers;
  const real = t.services.tunnels.limitEnforcer;
  const ctx = (real as unknown as { ctx: TunnelContext }).ctx;
  // The operator disables the peer after the enforcer read it as enabled, before its disable.
  const racing = new LimitEnforcer(ctx, {
    enable: (id, actor) => peers.enable(id, actor),
    disable: async (id, actor) => {
      await peers.disable(id, "admin");
      clock.advance(1000);
      return await peers.disable(id, actor);
    },
  });
  await racing.account(counterRead(peer.public_key, 0, 0));
  await racing.account(counterRead(peer.public_key, 80, 40));
  assertEquals((await peers.view(peer.id)).status, "disabled");
  clock.set(Date.parse("2026-01-17T00:00:00Z"));
  await racing.due();
  assertEquals((await peers.view(peer.id)).status, "disabled");
});
