/**
 * Peer limits end to end on real WireGuard (docs/peer_lifecycle.md): a
 * Palisade server whose linux driver acts inside a server namespace, a
 * client namespace joined to it by a veth pair and brought up with wg-quick
 * from the downloaded config. Pings with a payload push real traffic over a
 * peer with a 256 KiB quota until the periodic pass counts it used up: the
 * peer leaves the host (`wg show` no longer lists it), its traffic stops,
 * PeerQuotaReached goes out and the audit log has the reason. A second peer
 * with an expiry a few seconds ahead leaves the host at its expiry. A third
 * test deletes the device under Palisade (its wireguard-go goes, the
 * automatic reconcile brings up a new one whose transfer counters start at
 * zero) between two batches of traffic: both batches are counted.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { apiClient, collectFrames, type FrameLog } from "../helpers/api_client.ts";
import { destroyNetns, type Netns, netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { hostInterface } from "../helpers/wg_host.ts";
import { createLogger } from "../../lib/log/log.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "nft", "ping", "wg-quick"];
const USERSPACE = { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };
const QUOTA = 256 * 1024;
/** What one batch of pings (below) puts through at least, counting both directions. */
const BATCH = 200 * 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Palisade server acting in one namespace, a client namespace on a veth pair, one interface. */
interface Rig {
  server: Netns;
  client: Netns;
  dir: string;
  t: TestServer;
  api: ReturnType<typeof apiClient>;
  ws: FrameLog;
  ifName: string;
  ifaceId: string;
  logs: string[];
  onHost(): Promise<string[]>;
  ping(args: string[]): ReturnType<typeof run>;
  /** Brings the client side of `peerId` up with wg-quick from its downloaded config. */
  up(peerId: string): Promise<string>;
}

async function rig(env: Record<string, string> = {}): Promise<Rig & AsyncDisposable> {
  const server = await netns();
  const client = await netns();
  const dir = await Deno.makeTempDir({ prefix: "palisade-limits-" });
  const cleanup = async () => {
    await destroyNetns(client.name);
    await server[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  };
  try {
    await run("ip", [
      ...["-n", server.name, "link", "add", "vs0", "type", "veth"],
      ...["peer", "name", "vc0", "netns", client.name],
    ]);
    await run("ip", ["-n", server.name, "addr", "add", "192.168.79.1/24", "dev", "vs0"]);
    await run("ip", ["-n", server.name, "link", "set", "vs0", "up"]);
    await run("ip", ["-n", client.name, "addr", "add", "192.168.79.2/24", "dev", "vc0"]);
    await run("ip", ["-n", client.name, "link", "set", "vc0", "up"]);
    const logs: string[] = [];
    const t = await startTestServer({
      log: createLogger("warn", (line) => logs.push(line)),
      env: {
        PALISADE_HOST_DRIVER: "linux",
        PALISADE_HOST_NETNS: server.name,
        PALISADE_HOST_POLL_MS: "500",
        ...env,
      },
    });
    const cookie = await t.login();
    const api = apiClient(t.admin, { cookie });
    const ws = await collectFrames(t.admin, { cookie });
    const ifName = `pl${randomSuffix(6)}`;
    const iface = await api.post("/interfaces", {
      name: ifName,
      address_v4: "10.98.0.1/24",
      listen_port: 51821,
    });
    assertEquals(iface.status, 201, JSON.stringify(iface.body));
    return {
      ...{ server, client, dir, t, api, ws, ifName, ifaceId: iface.body.id, logs },
      onHost: async () => Object.keys((await hostInterface(server, ifName))?.peers ?? {}),
      ping: (args) =>
        run("ip", ["netns", "exec", client.name, "ping", ...args, "10.98.0.1"], {
          allowFail: true,
        }),
      async up(peerId) {
        const conf = await api.fetch(`/peers/${peerId}/config?endpoint=192.168.79.1`);
        assertEquals(conf.status, 200);
        const file = `${dir}/pq${randomSuffix(5)}.conf`;
        await Deno.writeTextFile(file, await conf.text(), { mode: 0o600 });
        await run("ip", ["netns", "exec", client.name, "wg-quick", "up", file], { env: USERSPACE });
        return file;
      },
      async [Symbol.asyncDispose]() {
        await ws[Symbol.asyncDispose]();
        await t[Symbol.asyncDispose]();
        await cleanup();
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

Deno.test("peer limits on real WireGuard: traffic over a 256 KiB quota takes the peer off the host and stops; an expired peer leaves the host at its expiry", async () => {
  if (!haveSystem("peer limits system", TOOLS, { root: true })) return;
  await using r = await rig();
  const { api, ws, onHost, ping, logs } = r;
  const peer = (name: string) =>
    api.post(`/interfaces/${r.ifaceId}/peers`, { name, profile: "split-tunnel" });
  const metered = (await peer("metered")).body;
  const expiring = (await peer("expiring")).body;
  assertEquals((await onHost()).sort(), [metered.public_key, expiring.public_key].sort());

  const set = await api.put(`/peers/${metered.id}/limits`, { quota_bytes: QUOTA });
  assertEquals(set.status, 200, JSON.stringify(set.body));
  await r.up(metered.id);
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
});

/** used_bytes of `peerId` once it reached `atLeast`, or what it was when the bound ran out. */
async function usedAtLeast(api: Rig["api"], peerId: string, atLeast: number): Promise<number> {
  let used = 0;
  for (let i = 0; i < 75; i++) {
    used = (await api.get(`/peers/${peerId}/limits`)).body.used_bytes;
    if (used >= atLeast) break;
    await sleep(200);
  }
  return used;
}

Deno.test("peer limits on real WireGuard: traffic before and after a wireguard-go restart (counters back to zero) is all counted", async () => {
  if (!haveSystem("peer limits restart", TOOLS, { root: true })) return;
  await using r = await rig({ PALISADE_HOST_AUTO_RECONCILE: "true" });
  const { api, onHost, ping } = r;
  const peer = (await api.post(`/interfaces/${r.ifaceId}/peers`, { name: "counted" })).body;
  const set = await api.put(`/peers/${peer.id}/limits`, { quota_bytes: 64 * 1024 * 1024 });
  assertEquals(set.status, 200, JSON.stringify(set.body));
  const file = await r.up(peer.id);
  // `wg show … transfer` on the server: public key, received, sent.
  const transfer = async () => {
    const out = (await r.server.exec("wg", ["show", r.ifName, "transfer"])).stdout.split("\t");
    return Number(out[1]) + Number(out[2]);
  };
  const used = async () => (await api.get(`/peers/${peer.id}/limits`)).body.used_bytes as number;
  // Pings of 1000 bytes there and back, about 2.1 KB each through the server's device.
  const pings = (n: number) =>
    ping(["-c", `${n}`, "-i", "0.01", "-s", "1000", "-W", "1", "-w", "15"]);
  // The first pass that sees the peer only notes its counters; wait until one counted.
  let start = 0;
  for (let i = 0; i < 20 && start === 0; i++) {
    await ping(["-c", "1", "-w", "5"]);
    await sleep(500);
    start = await used();
  }
  assert(start > 0, "a pass counted the first pings");
  const t0 = await transfer();
  await pings(100);
  const t1 = await transfer();
  assert(t1 - t0 > BATCH / 2, `traffic went through: ${t1 - t0}`);
  const first = await usedAtLeast(api, peer.id, start + (t1 - t0) * 0.95);
  assert(first >= start + (t1 - t0) * 0.95, `the first batch counted: ${first} of ${t1 - t0}`);

  // The device and its wireguard-go go; the automatic reconcile brings up a fresh one.
  await run("ip", ["-n", r.server.name, "link", "del", "dev", r.ifName]);
  for (let i = 0; i < 50 && !(await onHost()).includes(peer.public_key); i++) await sleep(200);
  assert((await onHost()).includes(peer.public_key), `device back; logs ${r.logs}`);
  assert((await transfer()) < t1, "the new device's counters start over");
  // A fresh handshake from the client side for the new device.
  await run("ip", ["netns", "exec", r.client.name, "wg-quick", "down", file], { env: USERSPACE });
  await run("ip", ["netns", "exec", r.client.name, "wg-quick", "up", file], { env: USERSPACE });
  assertEquals((await ping(["-c", "1", "-w", "10"])).code, 0, "traffic after the restart");
  // Fewer bytes than the old device's counters reached: counting only what exceeds them (no
  // reset handling) would count none of it, whenever the passes read.
  await pings(50);
  const after = await transfer();
  assert(after > BATCH / 4 && after < t1, `traffic went through the new device: ${after}`);
  const both = await usedAtLeast(api, peer.id, first + after * 0.95);
  assert(
    both >= first + after * 0.95,
    `both counted: ${first}, then ${both} (new device ${after})`,
  );
});
