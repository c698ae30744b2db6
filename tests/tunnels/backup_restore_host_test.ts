/**
 * A restore puts the host back in step with the restored data: a Palisade
 * server whose linux driver acts in a namespace backs up while one peer
 * exists, gets a second peer and a firewall rule afterwards, and restores.
 * WireGuard (read with `wg show`, not the driver) then has exactly the
 * backed-up peer, Palisade's nftables table no rule, and the reconcile plan
 * is in sync — without a restart.
 */
import { assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { hostInterface } from "../helpers/wg_host.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft"];

Deno.test("a restore reconciles the host to the restored data: a later peer and rule leave the host", async () => {
  if (!haveSystem("backup restore on a real host", TOOLS, { root: true })) return;
  await using ns = await netns();
  await using t = await startTestServer({
    env: { PALISADE_HOST_DRIVER: "linux", PALISADE_HOST_NETNS: ns.name },
  });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const ifName = `pb${randomSuffix(6)}`;
  const iface = (await api.post("/interfaces", { name: ifName, address_v4: "10.97.0.1/24" })).body;
  const kept = (await api.post(`/interfaces/${iface.id}/peers`, { name: "kept" })).body;
  const backup = await api.post("/backups/create");
  assertEquals(backup.status, 201, JSON.stringify(backup.body));

  const later = (await api.post(`/interfaces/${iface.id}/peers`, { name: "later" })).body;
  const rule = await api.post("/firewall/rules", {
    name: "later-rule",
    protocol: "tcp",
    port: 22,
    action: "drop",
  });
  assertEquals(rule.status, 201, JSON.stringify(rule.body));
  const peersOnHost = async () => Object.keys((await hostInterface(ns, ifName))!.peers).sort();
  assertEquals(await peersOnHost(), [kept.public_key, later.public_key].sort());

  const restored = await api.post(`/backups/${backup.body.id}/restore`);
  assertEquals(restored.status, 200, JSON.stringify(restored.body));
  assertEquals(await peersOnHost(), [kept.public_key]);
  const table = await ns.exec("nft", ["-j", "list", "table", "inet", "palisade"], {
    allowFail: true,
  });
  const rules = table.code === 0
    ? (JSON.parse(table.stdout).nftables as { rule?: unknown }[]).filter((i) => i.rule)
    : [];
  assertEquals(rules, [], "the rule made after the backup is gone from the host");
  assertEquals((await api.get("/reconcile/plan")).body.in_sync, true);
  assertEquals((await api.get(`/peers/${later.id}`)).status, 404);
});
