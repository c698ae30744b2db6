/**
 * Routes and firewall rules end to end on a real host, through the HTTP API
 * only: a Palisade server whose linux driver acts inside a server namespace,
 * a client namespace joined to it over a veth pair and a real WireGuard
 * tunnel (wireguard-go, wg-quick). A route made with POST /routes is in
 * `ip route`; a `drop` rule blocks a real TCP connection over the tunnel
 * while another port still connects; disable lets it through; a route and a
 * rule deleted by hand show in /reconcile/plan and come back with
 * /reconcile/apply; a rule added by hand to Palisade's table is removed; and
 * after a restart over the same store the host is put back as it was.
 */
import { assert, assertEquals } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { destroyNetns, netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft", "wg-quick", "curl", "python3"];
const USERSPACE = { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };
const TABLE = "palisade";
const PROTO = "97";
const DEST = "10.200.0.0/24";

interface HostRoute {
  dst: string;
  gateway?: string;
  dev: string;
  metric?: number;
  protocol: string;
}

/** Routes of `dst` in the server namespace's main table, read with ip -j (not the driver). */
async function routesTo(ns: string, dst: string): Promise<HostRoute[]> {
  const r = await run("ip", ["-n", ns, "-j", "route", "show", "table", "main", dst]);
  return JSON.parse(r.stdout || "[]");
}

/** Handles of the rules in Palisade's input chain whose comment starts with "palisade:". */
async function palisadeRules(ns: string): Promise<{ handle: number; comment: string }[]> {
  const r = await run("ip", ["netns", "exec", ns, "nft", "-j", "list", "table", "inet", TABLE], {
    allowFail: true,
  });
  if (r.code !== 0) return [];
  const items = JSON.parse(r.stdout).nftables as { rule?: { handle: number; comment?: string } }[];
  return items.flatMap((i) =>
    i.rule ? [{ handle: i.rule.handle, comment: i.rule.comment ?? "" }] : []
  );
}

Deno.test("routes and firewall over HTTP: applied to the host, enforced on a real tunnel, restored by reconcile and by a restart", async () => {
  if (!haveSystem("routes and firewall system", TOOLS, { root: true })) return;
  const server = await netns();
  const client = await netns();
  const dir = await Deno.makeTempDir({ prefix: "palisade-net-" });
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-netdata-" });
  const listeners: Deno.ChildProcess[] = [];
  try {
    await run("ip", [
      "-n",
      server.name,
      "link",
      "add",
      "vs0",
      "type",
      "veth",
      "peer",
      "name",
      "vc0",
      "netns",
      client.name,
    ]);
    await server.exec("ip", ["addr", "add", "192.168.79.1/24", "dev", "vs0"]);
    await server.exec("ip", ["link", "set", "vs0", "up"]);
    await client.exec("ip", ["addr", "add", "192.168.79.2/24", "dev", "vc0"]);
    await client.exec("ip", ["link", "set", "vc0", "up"]);

    const env = { PALISADE_HOST_DRIVER: "linux", PALISADE_HOST_NETNS: server.name };
    const ifName = `pn${randomSuffix(6)}`;
    let ids: { iface: string; route: string; rule: string };
    {
      await using t = await startTestServer({ env, dataDir });
      const api = apiClient(t.admin, { authorization: `Bearer ${await t.createToken("net")}` });
      await using ws = await collectFrames(t.admin, { cookie: await t.login() });
      const iface = (await api.post("/interfaces", {
        name: ifName,
        address_v4: "10.98.0.1/24",
        listen_port: 51821,
      })).body;
      const peer = (await api.post(`/interfaces/${iface.id}/peers`, {
        name: "client",
        profile: "split-tunnel",
      })).body;
      const conf = await (await api.fetch(`/peers/${peer.id}/config?endpoint=192.168.79.1`)).text();
      const file = `${dir}/pk${randomSuffix(5)}.conf`;
      await Deno.writeTextFile(file, conf, { mode: 0o600 });
      await run("ip", ["netns", "exec", client.name, "wg-quick", "up", file], { env: USERSPACE });
      await run("ip", ["netns", "exec", client.name, "ping", "-c", "1", "-w", "10", "10.98.0.1"]);

      // Two TCP services on the tunnel address of the server.
      for (const port of ["8081", "8082"]) {
        listeners.push(
          new Deno.Command("ip", {
            args: [
              "netns",
              "exec",
              server.name,
              "python3",
              "-m",
              "http.server",
              port,
              "--bind",
              "10.98.0.1",
            ],
            cwd: dir,
            stdout: "null",
            stderr: "null",
          }).spawn(),
        );
      }
      const reach = async (port: string) => {
        const r = await run("ip", [
          "netns",
          "exec",
          client.name,
          "curl",
          "-s",
          "-o",
          "/dev/null",
          "-w",
          "%{http_code}",
          "--max-time",
          "2",
          `http://10.98.0.1:${port}/`,
        ], { allowFail: true });
        return r.stdout === "200";
      };
      for (let i = 0; i < 50 && !(await reach("8081") && await reach("8082")); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert(await reach("8081") && await reach("8082"), "both services answer before any rule");

      // A route through the peer: in ip route with Palisade's protocol tag, gone after DELETE.
      const temp = await api.post("/routes", {
        destination: DEST,
        gateway: peer.address,
        metric: 10,
      });
      assertEquals(temp.status, 201, JSON.stringify(temp.body));
      assertEquals(
        (await routesTo(server.name, DEST)).map((r) => [r.gateway, r.dev, r.metric, r.protocol]),
        [
          [peer.address, ifName, 10, PROTO],
        ],
      );
      assertEquals((await api.del(`/routes/${temp.body.id}`)).status, 200);
      assertEquals(await routesTo(server.name, DEST), []);
      const route =
        (await api.post("/routes", { destination: DEST, gateway: peer.address, metric: 20 })).body;
      // The route carries traffic: the gateway peer's AllowedIPs took the destination, so a packet
      // from the server to an address the client holds in that block crosses the tunnel.
      const clientDev = file.slice(file.lastIndexOf("/") + 1, -".conf".length);
      await client.exec("ip", ["addr", "add", "10.200.0.1/32", "dev", clientDev]);
      await server.exec("ping", ["-c", "1", "-w", "5", "10.200.0.1"]);

      // A drop rule for one port: that port is blocked over the tunnel, the other still connects.
      const rule = await api.post("/firewall/rules", {
        name: "block-8081",
        protocol: "tcp",
        port: 8081,
        action: "drop",
        interface_id: iface.id,
      });
      assertEquals(rule.status, 201, JSON.stringify(rule.body));
      assertEquals([await reach("8081"), await reach("8082")], [false, true]);
      assertEquals((await api.post(`/firewall/rules/${rule.body.id}/disable`)).status, 200);
      assertEquals(await reach("8081"), true, "a disabled rule lets the connection through");
      assertEquals((await api.post(`/firewall/rules/${rule.body.id}/enable`)).status, 200);
      assertEquals(await reach("8081"), false);

      // Drift by hand: the rule and the route deleted, a stray rule added to Palisade's table.
      const [ours] = await palisadeRules(server.name);
      assertEquals(ours.comment, `palisade:${rule.body.id}`);
      await server.exec("nft", [
        "delete",
        "rule",
        "inet",
        TABLE,
        "input",
        "handle",
        String(ours.handle),
      ]);
      await server.exec("ip", ["route", "del", DEST, "proto", PROTO]);
      await server.exec("nft", [
        "add",
        "rule",
        "inet",
        TABLE,
        "input",
        "tcp",
        "dport",
        "9999",
        "drop",
      ]);
      assertEquals(await reach("8081"), true, "the rule is gone from the host");
      const plan = (await api.get("/reconcile/plan")).body;
      assertEquals(plan.in_sync, false);
      const kinds = plan.items.map((i: { kind: string }) => i.kind).sort();
      assertEquals(kinds, ["firewall_rule_missing", "firewall_rule_unexpected", "route_missing"]);
      const applied = (await api.post("/reconcile/apply")).body;
      assertEquals([applied.verified, applied.remaining], [true, []], JSON.stringify(applied));
      assertEquals((await routesTo(server.name, DEST)).map((r) => r.gateway), [peer.address]);
      assertEquals((await palisadeRules(server.name)).map((r) => r.comment), [
        `palisade:${rule.body.id}`,
      ]);
      assertEquals([await reach("8081"), await reach("8082")], [false, true]);
      // Each thing put back is announced once, with its id.
      await ws.waitFor(
        (f) =>
          f.type === "RouteChanged" && f.payload.id === route.id && f.payload.action === "restored",
        5_000,
        "RouteChanged restored",
      );
      await ws.waitFor(
        (f) =>
          f.type === "FirewallChanged" && f.payload.id === rule.body.id &&
          f.payload.action === "restored",
        5_000,
        "FirewallChanged restored",
      );
      ids = { iface: iface.id, route: route.id, rule: rule.body.id };
    }

    // Server down: the host loses Palisade's table and route; a restart over the same store puts
    // them back (the WireGuard device stays, as wg-quick's would).
    await server.exec("nft", ["delete", "table", "inet", TABLE]);
    await server.exec("ip", ["route", "del", DEST, "proto", PROTO], { allowFail: true });
    {
      await using t = await startTestServer({ env, dataDir });
      const api = apiClient(t.admin, { authorization: `Bearer ${await t.createToken("net2")}` });
      assertEquals((await routesTo(server.name, DEST)).length, 1);
      assertEquals((await palisadeRules(server.name)).map((r) => r.comment), [
        `palisade:${ids.rule}`,
      ]);
      assertEquals((await api.get("/reconcile/plan")).body.in_sync, true);
      assertEquals((await api.get("/routes")).body.routes.map((r: { id: string }) => r.id), [
        ids.route,
      ]);
    }
  } finally {
    for (const l of listeners) {
      try {
        l.kill("SIGTERM");
      } catch { /* gone */ }
      await l.status.catch(() => {});
    }
    await destroyNetns(client.name);
    await destroyNetns(server.name);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
