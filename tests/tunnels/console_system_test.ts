/**
 * The console's host commands on real WireGuard in a namespace: each runs
 * inside PALISADE_HOST_NETNS and answers with its command line, output and
 * exit code; the interface's private key and the peer's preshared key never
 * appear in any response, while the public keys do.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { executor } from "../helpers/console.ts";
import { apiClient } from "../helpers/api_client.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("POST /cli/execute runs wg, ip and nft in the namespace and masks every private and preshared key", async () => {
  if (!haveSystem("console host commands", ["ip", "wg", "wireguard-go", "nft"], { root: true })) {
    return;
  }
  await using ns = await netns();
  await using t = await startTestServer({
    env: {
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
      PALISADE_HOST_POLL_MS: "3600000",
    },
  });
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const exec = executor(t, cookie);
  const ifName = `cs${randomSuffix(6)}`;
  const iface = (await api.post("/interfaces", { name: ifName, address_v4: "10.97.0.1/24" })).body;
  const peer = (await api.post(`/interfaces/${iface.id}/peers`, { name: "p", preshared_key: true }))
    .body;
  const secrets = [
    rawRow<{ private_key: string }>(t.store, "interfaces", ["private_key"], {
      id: iface.id,
    })!.private_key,
    rawRow<{ preshared_key: string }>(t.store, "peers", ["preshared_key"], {
      id: peer.id,
    })!.preshared_key,
  ];
  // The keys are on the host: the masking is what keeps them out. wg shows
  // the private key clamped (RFC 7748), which may differ from the stored text.
  const raw = (await ns.exec("wg", ["show", ifName, "dump"])).stdout;
  secrets.push(raw.split("\t")[0]);
  assertStringIncludes(raw, secrets[1]);

  const host = (sub: string, subsub: string, target: string | null = null) => ({
    command: sub.split(" ")[0],
    subcommand: sub.split(" ")[1],
    sub_subcommand: subsub,
    target,
    parameters: {},
  });
  const inNs = `ip netns exec ${ns.name} `;
  const wg = await exec(host("wg show", "dump", ifName));
  assertEquals(wg.status, 200, wg.text);
  assertEquals(wg.body.command_line, `${inNs}wg show ${ifName} dump`);
  assertEquals(wg.body.exit_code, 0);
  const lines = wg.body.output.trim().split("\n").map((l: string) => l.split("\t"));
  assertEquals([lines[0][0], lines[0][1]], ["(hidden)", iface.public_key]);
  assertEquals([lines[1][0], lines[1][1]], [peer.public_key, "(hidden)"]);

  const addr = await exec(host("ip addr", "show", ifName));
  assertEquals(addr.body.command_line, `${inNs}ip -j addr show dev ${ifName}`);
  assertEquals(addr.body.output[0].addr_info[0].local, "10.97.0.1");
  const link = await exec(host("ip link", "show"));
  assert(link.body.output.some((l: { ifname: string }) => l.ifname === ifName));
  const route = await exec(host("ip route", "show"));
  assert(route.body.output.some((r: { dst: string }) => r.dst === "10.97.0.0/24"));
  const nft = await exec(host("nft list", "table"));
  assertEquals(nft.body.command_line, `${inNs}nft -j list table inet palisade`);
  assertEquals(typeof nft.body.exit_code, "number");
  // A device that is not there: the command's own failure, not a server error.
  const missing = await exec(host("wg show", "dump", "nosuchdev"));
  assertEquals([missing.status, missing.body.exit_code !== 0], [200, true]);

  const internal = await Promise.all([
    exec({ command: "peers", subcommand: "show", target: peer.id }),
    exec({ command: "peers", subcommand: "list" }),
    exec({ command: "reconcile", subcommand: "plan" }),
    exec({ command: "diagnostics", target: "tunnels" }),
  ]);
  for (const r of [wg, addr, link, route, nft, missing, ...internal]) {
    assertEquals(r.status, 200, r.text);
    for (const s of secrets) assertEquals(r.text.includes(s), false, r.text);
  }
  const audit = await t.services.audit.list({
    event_type: "console.executed",
    limit: 20,
    offset: 0,
  });
  assertEquals(audit.total, 10);
  assert(audit.records.some((r) => r.message === `Ran "${inNs}wg show ${ifName} dump" (exit 0)`));
});
