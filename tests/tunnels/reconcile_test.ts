/**
 * Reconcile against real WireGuard in a namespace: drift made behind
 * Palisade's back shows in the plan exactly, apply restores it without
 * touching anything else, the periodic pass reports it, and a restart
 * (new service over the same store) rebuilds a device that vanished.
 */
import { assert, assertEquals } from "../assert.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { tunnelHarness } from "../helpers/tunnels.ts";
import { LinuxDriver } from "../../lib/host/linux_driver.ts";
import { createTunnels } from "../../lib/tunnel/tunnels.ts";
import { silentLogger } from "../../lib/log/log.ts";
import { keys } from "../../lib/tunnel/keys.ts";
import { EventBus } from "../../lib/events/bus.ts";

const TOOLS = ["ip", "wg", "wireguard-go"];

Deno.test("Reconciler.plan() reports a peer removed behind our back, and apply restores only it", async () => {
  if (!haveSystem("reconcile peer removed", TOOLS, { root: true })) return;
  await using ns = await netns();
  await using h = await tunnelHarness(new LinuxDriver({ netns: ns.name }), { pollMs: 3_600_000 });
  const t = h.tunnels;
  const ifName = `pr${randomSuffix(6)}`;
  const iface = await t.interfaces.create({ name: ifName, address_v4: "10.98.0.1/24" }, "alice");
  const [a, b, c] = await t.peers.createMany(iface.id, [{ name: "a" }, { name: "b" }, {
    name: "c",
  }], "alice");
  await t.monitor.pass();
  assertEquals((await t.reconciler.plan()).items, []);
  const livePeers = async () => (await t.telemetry.state(0))!.interfaces.get(ifName)!.peers;
  const before = await livePeers();

  await ns.exec("wg", ["set", ifName, "peer", b.public_key, "remove"]);

  const plan = await t.reconciler.plan();
  assertEquals(plan.in_sync, false);
  assertEquals(
    plan.items.map((
      { kind, interface: i, interface_id, peer_id, peer_name, public_key, field },
    ) => ({
      kind,
      i,
      interface_id,
      peer_id,
      peer_name,
      public_key,
      field,
    })),
    [{
      kind: "peer_missing",
      i: ifName,
      interface_id: iface.id,
      peer_id: b.id,
      peer_name: "b",
      public_key: b.public_key,
      field: null,
    }],
  );
  // The plan changed nothing.
  assertEquals((await livePeers()).has(b.public_key), false);

  // The periodic pass reports it once, not on every pass.
  await t.monitor.pass();
  await t.monitor.pass();
  const drift = h.events.filter((e) => e.type === "DriftDetected");
  assertEquals(drift.map((e) => e.payload), [{ items: 1, interfaces: [ifName] }]);

  const result = await t.reconciler.apply("alice");
  assertEquals([result.applied.length, result.remaining.length, result.verified], [1, 0, true]);
  const after = await livePeers();
  assert(after.has(b.public_key));
  assertEquals(after.get(a.public_key), before.get(a.public_key));
  assertEquals(after.get(c.public_key), before.get(c.public_key));
  assertEquals(
    (await h.audit.list({ event_type: "reconcile.applied", limit: 5, offset: 0 })).total,
    1,
  );
  // Nothing left: apply again is a no-op and writes no audit record.
  assertEquals((await t.reconciler.apply("alice")).applied, []);
  assertEquals(
    (await h.audit.list({ event_type: "reconcile.applied", limit: 5, offset: 0 })).total,
    1,
  );
});

Deno.test("Reconciler.plan() lists link, port, MTU, address, stray and changed peers; apply converges them", async () => {
  if (!haveSystem("reconcile fields", TOOLS, { root: true })) return;
  await using ns = await netns();
  await using h = await tunnelHarness(new LinuxDriver({ netns: ns.name }), { pollMs: 3_600_000 });
  const t = h.tunnels;
  const ifName = `pr${randomSuffix(6)}`;
  const iface = await t.interfaces.create({
    name: ifName,
    address_v4: "10.98.0.1/24",
    listen_port: 51830,
  }, "a");
  const [a, b] = await t.peers.createMany(
    iface.id,
    [{ name: "a" }, { name: "b", enabled: false }],
    "a",
  );
  const stray = (await keys()).publicKey;
  await ns.exec("ip", ["link", "set", "dev", ifName, "down"]);
  await ns.exec("ip", ["link", "set", "dev", ifName, "mtu", "1300"]);
  await ns.exec("ip", ["addr", "add", "10.97.0.1/24", "dev", ifName]);
  await ns.exec("wg", [
    "set",
    ifName,
    "listen-port",
    "51831",
    "peer",
    stray,
    "allowed-ips",
    "10.98.0.50/32",
  ]);
  await ns.exec("wg", ["set", ifName, "peer", a.public_key, "allowed-ips", "10.98.0.99/32"]);
  await ns.exec("wg", ["set", ifName, "peer", b.public_key, "allowed-ips", "10.98.0.3/32"]);
  const plan = await t.reconciler.plan();
  const kinds = plan.items.map((i) =>
    `${i.kind}:${i.field ?? ""}:${i.peer_name ?? i.public_key ?? ""}`
  ).sort();
  assertEquals(
    kinds,
    [
      "address::",
      "link_state::",
      "listen_port::",
      "mtu::",
      "peer_field:allowed_ips:a",
      `peer_unexpected::${stray}`,
      "peer_unexpected::b",
    ].sort(),
  );
  const r = await t.reconciler.apply("a");
  assertEquals([r.applied.length, r.verified], [7, true]);
  const st = await t.interfaces.status(iface.id);
  assertEquals([st.link, st.mtu, st.listen_port, st.addresses_v4, st.peers.on_host], [
    "up",
    1420,
    51830,
    ["10.98.0.1/24"],
    1,
  ]);
});

Deno.test("start() applies stored state: a device lost in a reboot comes back with its peers", async () => {
  if (!haveSystem("reconcile at start", TOOLS, { root: true })) return;
  await using ns = await netns();
  const driver = new LinuxDriver({ netns: ns.name });
  await using h = await tunnelHarness(driver, { pollMs: 3_600_000 });
  const ifName = `pr${randomSuffix(6)}`;
  const iface = await h.tunnels.interfaces.create(
    { name: ifName, address_v4: "10.98.0.1/24" },
    "a",
  );
  await h.tunnels.peers.createMany(iface.id, [{ name: "a" }, { name: "b" }], "a");
  const firstStart = await h.tunnels.start();
  assertEquals([firstStart.applied.length, firstStart.verified], [0, true]);
  await h.tunnels.stop();

  await run("ip", ["-n", ns.name, "link", "del", "dev", ifName]);
  // A new process over the same store.
  const again = createTunnels({
    store: h.store,
    audit: h.audit,
    events: new EventBus(),
    logger: silentLogger,
    driver: new LinuxDriver({ netns: ns.name }),
    serverEndpoint: () => ({ host: null, port: null, enabled: false }),
    pollMs: 3_600_000,
  });
  const r = await again.start();
  await again.stop();
  assertEquals([r.applied.map((i) => i.kind), r.verified], [["interface_missing"], true]);
  const st = await again.interfaces.status(iface.id);
  assertEquals([st.link, st.peers.on_host], ["up", 2]);
});
