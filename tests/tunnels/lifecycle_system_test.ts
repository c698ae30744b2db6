/**
 * Peer limits end to end on real WireGuard (docs/peer_lifecycle.md): a
 * Palisade server whose linux driver acts inside a server namespace, a
 * client namespace joined to it by a veth pair and brought up with wg-quick
 * from the downloaded config. Pings with a payload push real traffic over a
 * peer with a 256 KiB quota until the periodic pass counts it used up: the
 * peer leaves the host (`wg show` no longer lists it), its traffic stops,
 * PeerQuotaReached goes out and the audit log has the reason. A second peer
 * with an expiry a few seconds ahead leaves the host at its expiry.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { destroyNetns, netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { hostInterface } from "../helpers/wg_host.ts";
import { createLogger } from "../../lib/log/log.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft", "ping", "wg-quick"];
const USERSPACE = { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };
const QUOTA = 256 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("peer limits on real WireGuard: traffic over a 256 KiB quota takes the peer off the host and stops; an expired peer leaves the host at its expiry", async () => {
  if (!haveSystem("peer limits system", TOOLS, { root: true })) return;
  const server = await netns();
  const client = await netns();
  const dir = await Deno.makeTempDir({ prefix: "palisade-limits-" });
  try {
    await run("ip", [
      ...["-n", server.name, "link", "add", "vs0", "type", "veth"],
      ...["peer", "name", "vc0", "netns", client.name],
    ]);
    await run("ip", ["-n", server.name, "addr", "add", "192.168.79.1/24", "dev", "vs0"]);
    await run("ip", ["-n", server.name, "link", "set", "vs0", "up"]);
    await run("ip", ["-n", client.name, "addr", "add", "192.168.79.2/24", "dev", "vc0"]);
    await run("ip", ["-n", client.name, "link", "set", "vc0", "up"]);
    const ping = (args: string[]) =>
      run("ip", ["netns", "exec", client.name, "ping", ...args, "10.98.0.1"], { allowFail: true });

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
    const api = apiClient(t.admin, { cookie });
    await using ws = await collectFrames(t.admin, { cookie });
    const ifName = `pl${randomSuffix(6)}`;
    const iface = await api.post("/interfaces", {
      name: ifName,
      address_v4: "10.98.0.1/24",
      listen_port: 51821,
    });
    assertEquals(iface.status, 201, JSON.stringify(iface.body));
    const metered = (await api.post(`/interfaces/${iface.body.id}/peers`, {
      name: "metered",
      profile: "split-tunnel",
    })).body;
    const expiring = (await api.post(`/interfaces/${iface.body.id}/peers`, {
      name: "expiring",
      profile: "split-tunnel",
    })).body;
    const onHost = async () => Object.keys((await hostInterface(server, ifName))?.peers ?? {});
    assertEquals((await onHost()).sort(), [metered.public_key, expiring.public_key].sort());

    const set = await api.put(`/peers/${metered.id}/limits`, { quota_bytes: QUOTA });
    assertEquals(set.status, 200, JSON.stringify(set.body));
    const conf = await api.fetch(`/peers/${metered.id}/config?endpoint=192.168.79.1`);
    assertEquals(conf.status, 200);
    const file = `${dir}/pq${randomSuffix(5)}.conf`;
    await Deno.writeTextFile(file, await conf.text(), { mode: 0o600 });
    await run("ip", ["netns", "exec", client.name, "wg-quick", "up", file], { env: USERSPACE });
    assertEquals((await ping(["-c", "2", "-w", "10"])).code, 0, "the tunnel carries traffic");

    // About 2 KiB per ping there and back: 500 pings are well over the quota. The pass
    // (every 500 ms) counts the bytes and takes the peer off the host part way through.
    const flood = await ping(["-c", "500", "-i", "0.01", "-s", "1000", "-W", "1", "-w", "12"]);
    let left: string[] = [];
    for (let i = 0; i < 50; i++) {
      left = await onHost();
      if (!left.includes(metered.public_key)) break;
      await sleep(200);
    }
    assert(!left.includes(metered.public_key), `metered still on the host; logs ${logs}`);
    assert(left.includes(expiring.public_key), "the other peer stays");
    assert(/ 0% packet loss/.test(flood.stdout) === false, "the flood was cut off");
    assertNotEquals((await ping(["-c", "3", "-W", "1"])).code, 0, "traffic stops");

    const limits = (await api.get(`/peers/${metered.id}/limits`)).body;
    assertEquals(limits.disabled_reason, "quota_reached");
    assert(limits.used_bytes >= QUOTA, `${limits.used_bytes} counted`);
    assertEquals((await api.get(`/peers/${metered.id}`)).body.status, "disabled");
    const frame = await ws.waitFor((f) => f.type === "PeerQuotaReached", 5000, "PeerQuotaReached");
    assertEquals(frame.payload.id, metered.id);
    const audit = (await api.get(`/audit?event_type=peer.quota_reached&limit=10`)).body.records;
    assertEquals(audit.map((r: { resource_id: string }) => r.resource_id), [metered.id]);

    // An expiry three seconds ahead: the peer leaves the host once it passed.
    const expiresAt = Date.now() + 3000;
    const exp = await api.put(`/peers/${expiring.id}/limits`, {
      expires_at: new Date(expiresAt).toISOString(),
    });
    assertEquals(exp.status, 200, JSON.stringify(exp.body));
    assert((await onHost()).includes(expiring.public_key), "on the host before its expiry");
    for (let i = 0; i < 60 && (await onHost()).includes(expiring.public_key); i++) await sleep(200);
    assert(!(await onHost()).includes(expiring.public_key), "off the host after its expiry");
    assert(Date.now() >= expiresAt, "not before its expiry");
    assertEquals((await api.get(`/peers/${expiring.id}/limits`)).body.disabled_reason, "expired");
    await ws.waitFor((f) => f.type === "PeerExpired", 5000, "PeerExpired");
  } finally {
    await destroyNetns(client.name);
    await server[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});
