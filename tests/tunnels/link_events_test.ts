/**
 * InterfaceChanged for link changes underneath Palisade, on real WireGuard in
 * a namespace: the monitor's pass announces a device set down by hand
 * (`link_down`), deleted by hand (`device_missing`) and back (`link_up`),
 * each once however many passes follow, and nothing for a disable through
 * the API (which announces `disabled` itself).
 */
import { assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("the monitor emits InterfaceChanged link_down, device_missing and link_up once per change made underneath", async () => {
  if (!haveSystem("link events", ["ip", "wg", "wireguard-go"], { root: true })) return;
  await using ns = await netns();
  await using t = await startTestServer({
    env: {
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
      // The test runs each pass itself.
      PALISADE_HOST_POLL_MS: "3600000",
    },
  });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const ifName = `pl${randomSuffix(6)}`;
  const iface = (await api.post("/interfaces", { name: ifName, address_v4: "10.96.0.1/24" })).body;
  const seen: string[] = [];
  const off = t.services.events.subscribe((e) => {
    if (e.type === "InterfaceChanged" && e.payload.id === iface.id) {
      seen.push(`${e.payload.action} ${e.payload.name}`);
    }
  });
  const passes = async (n: number) => {
    for (let i = 0; i < n; i++) await t.services.tunnels.monitor.pass();
  };
  try {
    await passes(2);
    assertEquals(seen, []);

    await ns.exec("ip", ["link", "set", ifName, "down"]);
    await passes(3);
    assertEquals(seen, [`link_down ${ifName}`]);

    await ns.exec("ip", ["link", "del", ifName]);
    await passes(3);
    assertEquals(seen, [`link_down ${ifName}`, `device_missing ${ifName}`]);

    assertEquals((await api.post("/reconcile/apply")).body.verified, true);
    await passes(3);
    // The reconcile announces what it did; the next pass sees the device back.
    assertEquals(seen.slice(2), [`reconciled ${ifName}`, `link_up ${ifName}`]);

    // Through the API: `disabled` from the service, no link_down from the monitor.
    assertEquals((await api.post(`/interfaces/${iface.id}/disable`)).status, 200);
    await passes(3);
    assertEquals(seen.slice(4), [`disabled ${ifName}`]);
  } finally {
    off();
  }
});
