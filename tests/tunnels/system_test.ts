/**
 * End to end on real WireGuard: a server namespace managed by Palisade's
 * linux driver, two client namespaces joined to it by veth pairs, client
 * configs downloaded from the peer service and brought up with wg-quick,
 * traffic, telemetry and PeerHandshake events, and peer disable/enable that
 * leaves the other peer's session and counters untouched.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { destroyNetns, netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { tunnelHarness } from "../helpers/tunnels.ts";
import { LinuxDriver } from "../../lib/host/linux_driver.ts";
import type { LivePeer } from "../../lib/host/driver.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft", "ping", "wg-quick"];
const USERSPACE = { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };

Deno.test("tunnels system: configs from the service carry pings; disable and enable touch one peer only", async () => {
  if (!haveSystem("tunnels system", TOOLS, { root: true })) return;
  const server = await netns();
  const clients: string[] = [];
  const dir = await Deno.makeTempDir({ prefix: "palisade-sys-" });
  try {
    // Two client namespaces, each on its own veth link to the server namespace.
    const links = [
      { net: "192.168.77", ns: "" },
      { net: "192.168.78", ns: "" },
    ];
    for (const [i, l] of links.entries()) {
      const c = await netns();
      clients.push(c.name);
      l.ns = c.name;
      await run("ip", [
        "-n",
        server.name,
        "link",
        "add",
        `vs${i}`,
        "type",
        "veth",
        "peer",
        "name",
        `vc${i}`,
        "netns",
        c.name,
      ]);
      await run("ip", ["-n", server.name, "addr", "add", `${l.net}.1/24`, "dev", `vs${i}`]);
      await run("ip", ["-n", server.name, "link", "set", `vs${i}`, "up"]);
      await run("ip", ["-n", c.name, "addr", "add", `${l.net}.2/24`, "dev", `vc${i}`]);
      await run("ip", ["-n", c.name, "link", "set", `vc${i}`, "up"]);
    }

    await using h = await tunnelHarness(new LinuxDriver({ netns: server.name }), {
      pollMs: 3_600_000,
    });
    const t = h.tunnels;
    const ifName = `ps${randomSuffix(6)}`;
    const iface = await t.interfaces.create({
      name: ifName,
      address_v4: "10.99.0.1/24",
      listen_port: 51820,
    }, "alice");
    const peerA = await t.peers.create(
      iface.id,
      { name: "alpha", profile: "split-tunnel" },
      "alice",
    );
    const peerB = await t.peers.create(
      iface.id,
      { name: "bravo", profile: "split-tunnel" },
      "alice",
    );
    // Baseline pass: both peers seen without a handshake.
    await t.monitor.pass();
    assertEquals((await t.reconciler.plan()).in_sync, true);

    for (const [i, peer] of [peerA, peerB].entries()) {
      const cfg = t.peers.config(peer.id, { endpoint: `${links[i].net}.1` }, "alice");
      // wg-quick names the device after the file; unique across namespaces.
      const file = `${dir}/pc${i}${randomSuffix(5)}.conf`;
      await Deno.writeTextFile(file, cfg.content, { mode: 0o600 });
      await run("ip", ["netns", "exec", links[i].ns, "wg-quick", "up", file], { env: USERSPACE });
    }

    for (const [i] of links.entries()) {
      await run("ip", ["netns", "exec", links[i].ns, "ping", "-c", "2", "-w", "10", "10.99.0.1"]);
    }

    const pass = await t.monitor.pass();
    assertEquals(pass.handshakes, 2);
    const hs = h.events.filter((e) => e.type === "PeerHandshake").map((e) =>
      e.payload as { id: string; rx_bytes: number }
    );
    assertEquals(hs.map((p) => p.id).sort(), [peerA.id, peerB.id].sort());
    assert(hs.every((p) => p.rx_bytes > 0));
    // No handshake change, no event.
    assertEquals((await t.monitor.pass()).handshakes, 0);

    const listed = await t.peers.list({ interface_id: iface.id });
    for (const p of listed) {
      const tel = p.telemetry!;
      assert(tel.on_host && tel.connected, `${p.name} connected`);
      assertNotEquals(tel.latest_handshake, null);
      assert(tel.rx_bytes > 0 && tel.tx_bytes > 0, `${p.name} counters`);
      assert(
        tel.endpoint?.startsWith(p.name === "alpha" ? "192.168.77.2:" : "192.168.78.2:"),
        String(tel.endpoint),
      );
    }
    const status = await t.interfaces.status(iface.id);
    assertEquals([status.link, status.listen_port, status.peers.connected, status.peers.on_host], [
      "up",
      51820,
      2,
      2,
    ]);

    const liveB = async (): Promise<LivePeer> =>
      (await t.telemetry.state(0))!.interfaces.get(ifName)!.peers.get(peerB.public_key)!;
    const bBefore = await liveB();
    // B's own protocol traffic (a passive keepalive 10 s after its last
    // packet) may still add bytes; what must not happen is a reset: the same
    // session (handshake time, endpoint) and counters that only grow.
    const untouched = (b: LivePeer, what: string) => {
      assertEquals(
        [b.latestHandshake, b.endpoint, b.allowedIps, b.presharedKey],
        [bBefore.latestHandshake, bBefore.endpoint, bBefore.allowedIps, bBefore.presharedKey],
        what,
      );
      assert(b.rxBytes >= bBefore.rxBytes && b.txBytes >= bBefore.txBytes && b.rxBytes > 0, what);
    };

    await t.peers.disable(peerA.id, "alice");
    const down = await run("ip", [
      "netns",
      "exec",
      links[0].ns,
      "ping",
      "-c",
      "2",
      "-w",
      "3",
      "10.99.0.1",
    ], {
      allowFail: true,
    });
    assertNotEquals(down.code, 0, "traffic of a disabled peer must stop");
    untouched(await liveB(), "disabling A leaves B's session and counters");

    await t.peers.enable(peerA.id, "alice");
    // The client notices the lost session and handshakes again within ~15 s (WireGuard timers).
    await run("ip", ["netns", "exec", links[0].ns, "ping", "-c", "1", "-w", "30", "10.99.0.1"]);
    untouched(await liveB(), "enabling A leaves B's session and counters");
    await run("ip", ["netns", "exec", links[1].ns, "ping", "-c", "1", "-w", "10", "10.99.0.1"]);
    assertEquals((await t.reconciler.plan()).in_sync, true);

    const audit = h.audit.list({ limit: 100, offset: 0 }).records.map((r) => r.event_type);
    for (
      const e of [
        "interface.created",
        "peer.created",
        "peer.disabled",
        "peer.enabled",
        "peer.config_exported",
      ]
    ) {
      assert(audit.includes(e), e);
    }
    await t.interfaces.delete(iface.id, "alice");
    const gone = await t.telemetry.state(0);
    assertEquals(gone!.interfaces.has(ifName), false);
  } finally {
    for (const c of clients) await destroyNetns(c);
    await server[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});
