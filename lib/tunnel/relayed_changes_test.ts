/**
 * Several instances on one database (docs/tunnels.md, "Several instances"):
 * on the instance with the host driver, tunnel changes another instance
 * stored — its events, relayed with an origin — start the host jobs a local
 * change starts, reading the stored state; local events are left to the
 * services that emitted them.
 */
import { RecordingDriver } from "../../tests/helpers/recording_driver.ts";
import { assertEquals } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import { waitFor } from "../../tests/helpers/wait.ts";
import { EventBus } from "../events/bus.ts";

Deno.test("the host driver instance applies tunnel changes relayed from another instance, not local ones twice", async () => {
  const log: string[] = [];
  const bus = new EventBus();
  await using h = await tunnelHarness(new RecordingDriver(log), { events: bus, pollMs: 3_600_000 });
  const iface = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const peer = await h.tunnels.peers.create(iface.id, { name: "p" }, "a");
  log.length = 0;

  // A local event: its service already applied it; the relay path adds nothing.
  bus.emit("PeerChanged", { id: peer.id, action: "updated", interface_id: iface.id, name: "p" });
  await new Promise((r) => setTimeout(r, 50));
  assertEquals(log, []);

  // The same from another instance: the interface is converged from the store (one peer).
  const other = "instance-b";
  bus.emit(
    "PeerChanged",
    { id: peer.id, action: "updated", interface_id: iface.id, name: "p" },
    other,
  );
  await waitFor(() => log.length >= 1, 2000, 10);
  assertEquals(log, ["sync wg1 1"]);

  log.length = 0;
  bus.emit("FirewallChanged", { id: "r1", action: "created" }, other);
  bus.emit("InterfaceChanged", { id: "gone", action: "deleted", name: "wg9" }, other);
  bus.emit("NetworkChanged", { id: "n1", action: "created" }, other);
  await waitFor(() => log.length >= 2, 2000, 10);
  await new Promise((r) => setTimeout(r, 50));
  assertEquals(log, ["setFirewall 0", "remove wg9"]);
});
