/**
 * GET /diagnostics/{tunnels,firewall,routes} on a real host: a server whose
 * linux driver acts inside a namespace, everything ok once set up through
 * the API, then one thing broken by hand per subsystem (an nft rule deleted,
 * a route deleted, a device set down, a device deleted) and that subsystem's
 * check failing or warning while the others stay ok.
 */
import { assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft"];
const TABLE = "palisade";
const PROTO = "97";
const DEST = "10.201.0.0/24";

type Report = { subsystem: string; status: string; checks: { name: string; status: string }[] };
const summary = (r: Report) => [r.status, ...r.checks.map((c) => `${c.name}:${c.status}`)];

Deno.test("diagnostics on a real host: all ok, then a deleted nft rule, a deleted route, a device down and a deleted device each show in their subsystem", async () => {
  if (!haveSystem("diagnostics system", TOOLS, { root: true })) return;
  await using ns = await netns();
  await using t = await startTestServer({
    env: {
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
      PALISADE_HOST_POLL_MS: "3600000",
    },
  });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const ifName = `pd${randomSuffix(6)}`;
  const iface = (await api.post("/interfaces", { name: ifName, address_v4: "10.97.0.1/24" })).body;
  const peer = (await api.post(`/interfaces/${iface.id}/peers`, { name: "p" })).body;
  const route = await api.post("/routes", { destination: DEST, gateway: peer.address, metric: 5 });
  assertEquals(route.status, 201, JSON.stringify(route.body));
  const rule = await api.post("/firewall/rules", {
    name: "block-8081",
    protocol: "tcp",
    port: 8081,
    action: "drop",
    interface_id: iface.id,
  });
  assertEquals(rule.status, 201, JSON.stringify(rule.body));

  const get = async (s: string) => summary((await api.get(`/diagnostics/${s}`)).body);
  const all = (await api.get("/diagnostics/all")).body;
  assertEquals(
    [all.status, all.subsystems.map((s: Report) => `${s.subsystem}:${s.status}`)],
    [
      "ok",
      [
        "database:ok",
        "tunnels:ok",
        "firewall:ok",
        "routes:ok",
        "dns:ok",
        "attestation:ok",
        "backups:off",
      ],
    ],
  );
  assertEquals(await get("firewall"), ["ok", "table:ok", "rules:ok"]);
  assertEquals(await get("routes"), ["ok", "routes:ok"]);

  // Firewall: the rule deleted from Palisade's table by hand.
  const listed = JSON.parse(
    (await ns.exec("nft", ["-j", "list", "table", "inet", TABLE])).stdout,
  ).nftables as { rule?: { handle: number; chain: string; comment?: string } }[];
  const ours = listed.find((i) => i.rule?.comment === `palisade:${rule.body.id}`)!.rule!;
  await ns.exec("nft", [
    "delete",
    "rule",
    "inet",
    TABLE,
    ours.chain,
    "handle",
    String(ours.handle),
  ]);
  assertEquals(await get("firewall"), ["fail", "table:ok", "rules:fail"]);
  assertEquals(await get("routes"), ["ok", "routes:ok"]);
  // The whole table gone: the table check itself fails.
  await ns.exec("nft", ["delete", "table", "inet", TABLE]);
  assertEquals((await get("firewall")).slice(0, 2), ["fail", "table:fail"]);

  // Routes: Palisade's route deleted by hand.
  await ns.exec("ip", ["route", "del", DEST, "proto", PROTO]);
  assertEquals(await get("routes"), ["fail", "routes:fail"]);
  assertEquals((await api.post("/reconcile/apply")).body.verified, true);
  assertEquals((await api.get("/diagnostics/all")).body.status, "ok");

  // Tunnels: the device set down (a warning), then deleted (a failure).
  const drift = async () =>
    ((await api.get("/diagnostics/tunnels")).body as Report).checks.find((c) => c.name === "drift")!
      .status;
  await ns.exec("ip", ["link", "set", ifName, "down"]);
  assertEquals(await drift(), "warn");
  await ns.exec("ip", ["link", "del", ifName]);
  assertEquals(await drift(), "fail");
  assertEquals((await api.get("/diagnostics/all")).body.status, "fail");
});
