import { RecordingDriver } from "../../tests/helpers/recording_driver.ts";
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import type { BusEvent } from "../events/bus.ts";
import { HostError } from "../errors.ts";

/** A harness whose events and host commands land in one log, in the order they happened. */
async function setup() {
  const log: string[] = [];
  const driver = new RecordingDriver(log);
  const h = await tunnelHarness(driver, { pollMs: 3_600_000 });
  const iface = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  log.length = 0;
  const push = h.events.push.bind(h.events);
  h.events.push = (...events: BusEvent[]) => {
    for (const e of events) {
      if (e.type === "PeerChanged" || e.type === "InterfaceChanged") {
        log.push(`${e.type} ${e.payload.action}`);
      }
    }
    return push(...events);
  };
  return { h, iface, driver, log };
}

Deno.test("PeerChanged goes out after the host applied the change, for every peer mutation", async () => {
  const { h, iface, log } = await setup();
  await using _ = h;
  const p = h.tunnels.peers;
  const peer = await p.create(iface.id, { name: "a" }, "a");
  await p.update(peer.id, { address: "10.8.0.9" }, "a");
  await p.update(peer.id, { dns: "1.1.1.1" }, "a");
  await p.disable(peer.id, "a");
  await p.enable(peer.id, "a");
  await p.revoke(peer.id, "a");
  await p.delete(peer.id, "a");
  await p.createMany(iface.id, [{ name: "m1" }, { name: "m2" }], "a");
  assertEquals(log, [
    "setPeers wg1 +1 -0",
    "PeerChanged created",
    "setPeers wg1 +1 -0",
    "PeerChanged updated",
    // dns lives in the client config only: nothing to apply.
    "PeerChanged updated",
    "setPeers wg1 +0 -1",
    "PeerChanged disabled",
    "setPeers wg1 +1 -0",
    "PeerChanged enabled",
    "setPeers wg1 +0 -1",
    "PeerChanged revoked",
    "setPeers wg1 +0 -1",
    "PeerChanged deleted",
    "sync wg1 2",
    "InterfaceChanged peers_imported",
  ]);
  assertEquals(
    h.events.filter((e) => e.type === "PeerChanged").map((e) => e.payload).slice(0, 2),
    [
      { id: peer.id, action: "created", interface_id: iface.id, name: "a" },
      { id: peer.id, action: "updated", interface_id: iface.id, name: "a" },
    ],
  );
});

Deno.test("PeerChanged still goes out when the host apply failed: the stored change happened", async () => {
  const { h, iface, driver, log } = await setup();
  await using _ = h;
  const peer = await h.tunnels.peers.create(iface.id, { name: "a" }, "a");
  driver.fail = true;
  await assertRejects(() => h.tunnels.peers.disable(peer.id, "a"), HostError, "was saved");
  await assertRejects(() => h.tunnels.peers.delete(peer.id, "a"), HostError, "was saved");
  assertEquals(log.slice(2), [
    "setPeers wg1 +0 -1",
    "PeerChanged disabled",
    "setPeers wg1 +0 -1",
    "PeerChanged deleted",
  ]);
});
