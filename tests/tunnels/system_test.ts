/**
 * End to end on real WireGuard, through the HTTP API only: a Palisade server
 * whose linux driver acts inside a server namespace, two client namespaces
 * joined to it by veth pairs, peers created with POST, client configs
 * downloaded with GET /peers/{id}/config and brought up with wg-quick,
 * pings across the tunnel, telemetry in the listings, PeerHandshake on
 * /api/v1/ws, and peer disable/enable that stops and restores one peer's
 * traffic while the other peer's session and counters stay exactly as they
 * were.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { destroyNetns, netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { createLogger } from "../../lib/log/log.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft", "ping", "wg-quick"];
const USERSPACE = { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };
/** WireGuard's passive keepalive follows received data after 10 s; after that a quiet peer is still. */
const QUIET_AFTER_MS = 11_500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("tunnels system over HTTP: downloaded configs carry pings; the API shows handshakes and counters; disable and enable touch one peer only", async () => {
  if (!haveSystem("tunnels system over HTTP", TOOLS, { root: true })) return;
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
    const ping = (i: number, args: string[], allowFail = false) =>
      run("ip", ["netns", "exec", links[i].ns, "ping", ...args, "10.99.0.1"], { allowFail });

    // Warnings and errors (e.g. a failed host read of the periodic pass) explain a timeout.
    const logs: string[] = [];
    await using t = await startTestServer({
      log: createLogger("warn", (line) => logs.push(line)),
      env: {
        PALISADE_HOST_DRIVER: "linux",
        PALISADE_HOST_NETNS: server.name,
        PALISADE_HOST_POLL_MS: "500",
      },
    });
    const cookie = await t.login();
    // REST calls use an API token, the event socket the session cookie.
    const token = await t.createToken("system-test");
    const api = apiClient(t.admin, { authorization: `Bearer ${token}` });
    await using ws = await collectFrames(t.admin, { cookie });

    // Client A takes its endpoint from the stored settings, client B from the query.
    assertEquals(
      (await api.put("/system/settings", {
        key: "wireguard.server_host",
        value: `${links[0].net}.1`,
      })).status,
      200,
    );
    const ifName = `ps${randomSuffix(6)}`;
    const created = await api.post("/interfaces", {
      name: ifName,
      address_v4: "10.99.0.1/24",
      listen_port: 51820,
    });
    assertEquals(created.status, 201, JSON.stringify(created.body));
    const iface = created.body;
    const peerA = (await api.post(`/interfaces/${iface.id}/peers`, {
      name: "alpha",
      profile: "split-tunnel",
    })).body;
    const peerB = (await api.post(`/interfaces/${iface.id}/peers`, {
      name: "bravo",
      profile: "split-tunnel",
    })).body;
    assertEquals((await api.get("/reconcile/plan")).body.in_sync, true);
    // The periodic pass announces handshake *changes*: the first pass that sees a peer only
    // records it. Wait for a successful pass that saw both peers before any traffic.
    const createdAt = Date.parse(peerB.created_at);
    for (let i = 0;; i++) {
      const pass = (await api.get("/diagnostics/tunnels")).body.last_pass;
      if (pass && pass.error === null && Date.parse(pass.at) > createdAt) break;
      if (i === 50) throw new Error(`no successful pass: ${JSON.stringify(pass)} ${logs}`);
      await sleep(200);
    }

    for (const [i, peer] of [peerA, peerB].entries()) {
      const res = await api.fetch(
        `/peers/${peer.id}/config${i === 0 ? "" : `?endpoint=${links[i].net}.1`}`,
      );
      assertEquals(res.status, 200);
      assertEquals(
        res.headers.get("content-disposition"),
        `attachment; filename="${peer.name}.conf"`,
      );
      const text = await res.text();
      assert(text.includes(`Endpoint = ${links[i].net}.1:51820\n`), text);
      // wg-quick names the device after the file; unique across namespaces.
      const file = `${dir}/pc${i}${randomSuffix(5)}.conf`;
      await Deno.writeTextFile(file, text, { mode: 0o600 });
      await run("ip", ["netns", "exec", links[i].ns, "wg-quick", "up", file], { env: USERSPACE });
    }

    // B first, so that it has long been quiet when its counters are compared.
    await ping(1, ["-c", "2", "-w", "10"]);
    const bQuietAt = Date.now() + QUIET_AFTER_MS;
    await ping(0, ["-c", "2", "-w", "10"]);

    // The periodic pass (every 500 ms) sees both handshakes and announces each once.
    for (const peer of [peerA, peerB]) {
      const frame = await ws.waitFor(
        (f) => f.type === "PeerHandshake" && f.payload.id === peer.id,
        10_000,
        `PeerHandshake of ${peer.name}`,
      ).catch((err) => {
        throw new Error(
          `${err.message}; last pass ${JSON.stringify(t.services.tunnels.monitor.last)}; frames ${
            JSON.stringify(ws.frames.map((f) => f.type))
          }; logs ${logs.join("\n")}`,
        );
      });
      assertEquals(frame.payload.interface_id, iface.id);
      assertEquals(frame.payload.public_key, peer.public_key);
      assertNotEquals(frame.payload.latest_handshake, null);
    }

    const listed = await api.get(`/peers?interface_id=${iface.id}`);
    assertEquals(listed.body.total, 2);
    for (const p of listed.body.peers) {
      const tel = p.telemetry;
      assert(tel.on_host && tel.connected, `${p.name} connected`);
      assert(Date.parse(tel.latest_handshake) > Date.now() - 120_000, tel.latest_handshake);
      assert(tel.rx_bytes > 0 && tel.tx_bytes > 0, `${p.name} counters`);
      assert(
        tel.endpoint.startsWith(p.name === "alpha" ? "192.168.77.2:" : "192.168.78.2:"),
        tel.endpoint,
      );
    }
    const status = (await api.get(`/interfaces/${iface.id}/status`)).body;
    assertEquals(
      [
        status.driver,
        status.link,
        status.listen_port,
        status.peers.connected,
        status.peers.on_host,
      ],
      ["linux", "up", 51820, 2, 2],
    );
    assertEquals(
      status.peer_metrics.map((m: { name: string }) => m.name).sort(),
      ["alpha", "bravo"],
    );
    assert(status.rx_bytes > 0 && status.tx_bytes > 0);

    await sleep(Math.max(0, bQuietAt - Date.now()));
    const telemetryOfB = async () => {
      // A listing may reuse a host read up to 1 s old; wait that out so each read is new.
      await sleep(1100);
      return (await api.get(`/peers/${peerB.id}`)).body.telemetry;
    };
    const bBefore = await telemetryOfB();
    assert(bBefore.rx_bytes > 0 && bBefore.latest_handshake, JSON.stringify(bBefore));

    const disabled = await api.post(`/peers/${peerA.id}/disable`);
    assertEquals([disabled.status, disabled.body.status], [200, "disabled"]);
    assertEquals((await api.get(`/peers/${peerA.id}`)).body.telemetry.on_host, false);
    const down = await ping(0, ["-c", "2", "-w", "3"], true);
    assertNotEquals(down.code, 0, "traffic of a disabled peer must stop");
    assertEquals(await telemetryOfB(), bBefore, "disabling A leaves B's handshake and counters");

    const enabled = await api.post(`/peers/${peerA.id}/enable`);
    assertEquals([enabled.status, enabled.body.status], [200, "enabled"]);
    // The client notices the lost session and handshakes again within ~15 s (WireGuard timers).
    await ping(0, ["-c", "1", "-w", "30"]);
    assertEquals(await telemetryOfB(), bBefore, "enabling A leaves B's handshake and counters");
    await ping(1, ["-c", "1", "-w", "10"]);
    assertEquals((await api.get("/reconcile/plan")).body.in_sync, true);
    // Dozens of passes ran; PeerHandshake went out only when a handshake time changed:
    // once for B, and again for A after its session was rebuilt.
    await ws.waitFor(
      (f) =>
        f.type === "PeerHandshake" && f.payload.id === peerA.id &&
        f.payload.latest_handshake !==
          ws.frames.find((g) => g.type === "PeerHandshake" && g.payload.id === peerA.id)!.payload
            .latest_handshake,
      5000,
      "a second PeerHandshake of alpha",
    );
    const handshakesOf = (id: string) =>
      ws.frames.filter((f) => f.type === "PeerHandshake" && f.payload.id === id).length;
    assertEquals(handshakesOf(peerB.id), 1);
    assertEquals(handshakesOf(peerA.id), 2);

    const audit = (await api.get("/audit?limit=100")).body.records.map(
      (r: { event_type: string }) => r.event_type,
    );
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
    const changes = ws.frames.filter((f) => f.type === "PeerChanged").map((f) =>
      `${f.payload.name}:${f.payload.action}`
    );
    assertEquals(changes, ["alpha:created", "bravo:created", "alpha:disabled", "alpha:enabled"]);

    assertEquals((await api.del(`/interfaces/${iface.id}`)).status, 200);
    const gone = await run("ip", ["-n", server.name, "link", "show", "dev", ifName], {
      allowFail: true,
    });
    assertNotEquals(gone.code, 0, "the device is deleted with the interface");
  } finally {
    for (const c of clients) await destroyNetns(c);
    await server[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});
