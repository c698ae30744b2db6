/**
 * Tunnel benchmarks on real WireGuard inside a private network namespace.
 *
 * (a) Applying 1,000 peers to an empty interface through Palisade's apply
 *     path (desired state from the store, one host read, diff, one
 *     `wg addconf`) against `wg syncconf` with the same peers, same run,
 *     rounds interleaved. Target ratio ≤ 1.5.
 * (b) p50 of GET /api/v1/peers over HTTP (every peer, with telemetry: one
 *     SQL query + one host dump, merged, serialized) against main.ts running
 *     as a separate process, with 10,000 stored peers that are all on a real
 *     interface, authenticated with an API token. Target ≤ 50 ms.
 *
 * Run: deno task bench:tunnels (root; ip, wg, wireguard-go).
 */
import { destroyNetns, netns, randomSuffix } from "../tests/helpers/netns.ts";
import { haveSystem, run } from "../tests/helpers/system.ts";
import { tunnelHarness } from "../tests/helpers/tunnels.ts";
import { LinuxDriver } from "../lib/host/linux_driver.ts";
import { desiredState } from "../lib/tunnel/desired_state.ts";
import { HostSync } from "../lib/tunnel/host_sync.ts";
import { sqliteTunnelRepos } from "../lib/tunnel/tunnel_repos.ts";
import { silentLogger } from "../lib/log/log.ts";
import { sqliteAuditLog } from "../lib/audit/sqlite_audit.ts";
import { systemClock } from "../lib/clock.ts";
import { EventBus } from "../lib/events/bus.ts";
import { NoneDriver } from "../lib/host/none_driver.ts";
import { ATTEST_STORE_TUNING } from "../lib/attest/store_tuning.ts";
import { Store } from "../lib/store/store.ts";
import { createTunnels } from "../lib/tunnel/tunnels.ts";
import { startServerProcess } from "./lib/server_process.ts";
import { percentile } from "./lib/stats.ts";

const ROUNDS = 5;
const LIST_CALLS = 40;
const FRESH_CALLS = 15;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function ms(n: number): string {
  return `${n.toFixed(1)} ms`;
}

async function benchApply() {
  const ns = await netns("pltun");
  try {
    const driver = new LinuxDriver({ netns: ns.name });
    await using h = await tunnelHarness(driver, { pollMs: 3_600_000 });
    const ifName = `pb${randomSuffix(6)}`;
    const iface = await h.tunnels.interfaces.create({
      name: ifName,
      address_v4: "10.96.0.1/20",
      listen_port: 51840,
    }, "bench");
    let t0 = performance.now();
    await h.tunnels.peers.createMany(
      iface.id,
      Array.from({ length: 1000 }, (_, i) => ({ name: `peer${i}` })),
      "bench",
    );
    const createMany = performance.now() - t0;
    const repos = sqliteTunnelRepos(h.store);
    const [{ desired }] = await desiredState(repos, [iface.id]);
    const empty = { ...desired, peers: [] };
    const host = new HostSync(repos, driver, silentLogger);

    // The reference: the same interface and peers as a wg config file.
    const conf = [
      "[Interface]",
      `PrivateKey = ${desired.privateKey}`,
      `ListenPort = ${desired.listenPort}`,
      "",
      ...desired.peers.map((p) =>
        `[Peer]\nPublicKey = ${p.publicKey}\nPresharedKey = ${p.presharedKey}\nAllowedIPs = ${
          p.allowedIps.join(", ")
        }\n`
      ),
    ].join("\n");
    const dir = await Deno.makeTempDir({ prefix: "palisade-bench-" });
    const confFile = `${dir}/${ifName}.conf`;
    await Deno.writeTextFile(confFile, conf, { mode: 0o600 });

    const reset = async () => {
      await driver.remove(ifName);
      await driver.sync(empty, null);
    };
    const ours: number[] = [];
    const ref: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of r % 2 ? ["ref", "ours"] : ["ours", "ref"]) {
        await reset();
        t0 = performance.now();
        if (which === "ours") await host.syncInterface(iface.id);
        else await run("ip", ["netns", "exec", ns.name, "wg", "syncconf", ifName, confFile]);
        (which === "ours" ? ours : ref).push(performance.now() - t0);
        const n = (await driver.read()).interfaces.get(ifName)!.peers.size;
        if (n !== 1000) throw new Error(`${which} applied ${n} peers, not 1000`);
      }
    }
    // Steady state: nothing changed, and one peer changed.
    t0 = performance.now();
    const noop = await host.syncInterface(iface.id);
    const noopMs = performance.now() - t0;
    const one = (await h.tunnels.peers.list({ limit: 1 }))[0];
    t0 = performance.now();
    await h.tunnels.peers.disable(one.id, "bench");
    const oneMs = performance.now() - t0;
    await Deno.remove(dir, { recursive: true });
    const ratio = median(ours) / median(ref);
    console.log(
      "(a) apply 1,000 peers to an empty interface (wireguard-go, median of %d rounds)",
      ROUNDS,
    );
    console.log(
      `    palisade apply (store → read → diff → wg addconf): ${ms(median(ours))}  [${
        ours.map((x) => x.toFixed(0)).join(", ")
      }]`,
    );
    console.log(
      `    wg syncconf, same peers:                           ${ms(median(ref))}  [${
        ref.map((x) => x.toFixed(0)).join(", ")
      }]`,
    );
    console.log(
      `    ratio palisade / wg syncconf: ${ratio.toFixed(2)} (target ≤ 1.5) ${
        ratio <= 1.5 ? "PASS" : "FAIL"
      }`,
    );
    console.log(
      `    re-apply with nothing changed: ${ms(noopMs)} (peers set ${noop!.peersSet}, removed ${
        noop!.peersRemoved
      })`,
    );
    console.log(`    disable one peer of 1,000 (service call incl. host): ${ms(oneMs)}`);
    console.log(`    createMany 1,000 peers (keys, one transaction, apply): ${ms(createMany)}`);
    return ratio;
  } finally {
    await destroyNetns(ns.name);
  }
}

/** A store in `dir` holding one interface with `n` peers, written without touching the host. */
async function seedStore(dir: string, n: number): Promise<{ id: string; name: string }> {
  const store = Store.open(`${dir}/palisade.db`, { tuning: ATTEST_STORE_TUNING });
  try {
    const tunnels = createTunnels({
      store,
      audit: sqliteAuditLog(store, new EventBus(), systemClock),
      events: new EventBus(),
      logger: silentLogger,
      driver: new NoneDriver(),
      serverEndpoint: () => ({ host: null, port: null, enabled: false }),
    });
    const iface = await tunnels.interfaces.create({
      name: `pl${randomSuffix(6)}`,
      address_v4: "10.95.0.1/18",
      listen_port: 51850,
    }, "bench");
    await tunnels.peers.createMany(
      iface.id,
      Array.from({ length: n }, (_, i) => ({ name: `peer${i}` })),
      "bench",
    );
    return iface;
  } finally {
    store.close();
  }
}

/**
 * (b) over HTTP: main.ts in its own process (linux driver in a namespace,
 * default settings otherwise) with 10,000 stored peers that are all on a
 * real interface; this process sends GET /api/v1/peers (no limit: every peer
 * with telemetry, the spec's "all peers across interfaces") with an API
 * token, one request at a time, and times each until its body is read.
 */
async function benchList() {
  const ns = await netns("pltun");
  try {
    const dataDir = await Deno.makeTempDir({ prefix: "palisade-bench-" });
    let t0 = performance.now();
    const iface = await seedStore(dataDir, 10_000);
    const seedMs = performance.now() - t0;
    t0 = performance.now();
    await using server = await startServerProcess({
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
    }, { dataDir });
    const login = await fetch(`${server.admin}/api/v1/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: server.password }),
    });
    await login.body?.cancel();
    const cookie = login.headers.getSetCookie()[0].split(";")[0];
    const created = await fetch(`${server.admin}/api/v1/auth/tokens`, {
      method: "POST",
      headers: { cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "bench", expires_in_days: 1 }),
    });
    const auth = { authorization: `Bearer ${(await created.json()).raw_token}` };
    /** Times one request until its last body byte arrived; decoding and parsing are not timed. */
    const get = async (path: string) => {
      const s = performance.now();
      const res = await fetch(`${server.admin}/api/v1${path}`, { headers: auth });
      const body = await res.arrayBuffer();
      const ms = performance.now() - s;
      const text = new TextDecoder().decode(body);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`);
      return { text, ms };
    };
    // Stored state goes to the host after the listeners are up: wait for all of it.
    const deadline = Date.now() + 300_000;
    for (;;) {
      const st = JSON.parse((await get(`/interfaces/${iface.id}/status`)).text);
      if (st.peers.on_host === 10_000) break;
      if (Date.now() > deadline) throw new Error(`only ${st.peers.on_host} peers on the host`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const startMs = performance.now() - t0;

    const check = (text: string) => {
      const page = JSON.parse(text);
      if (
        page.total !== 10_000 || page.peers.length !== 10_000 || !page.peers[0].telemetry?.on_host
      ) {
        throw new Error("listing incomplete");
      }
      return text.length;
    };
    const measure = async (path: string, calls: number, gapMs: number) => {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < calls; i++) {
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        const { text, ms } = await get(path);
        times.push(ms);
        if (i === 0) bytes = path === "/peers" ? check(text) : text.length;
      }
      return { p50: percentile(times, 50), p90: percentile(times, 90), bytes };
    };
    const dumpTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      await run("ip", ["netns", "exec", ns.name, "wg", "show", "all", "dump"]);
      dumpTimes.push(performance.now() - s);
    }
    await measure("/peers", 3, 0); // warm-up: JIT, statement cache
    const shared = await measure("/peers", LIST_CALLS, 0);
    // More than the 1 s a host read is shared: every request waits for its own `wg show` dump.
    const fresh = await measure("/peers", FRESH_CALLS, 1100);
    const paged = await measure("/peers?limit=100&offset=5000", LIST_CALLS, 0);
    console.log(
      "(b) GET /api/v1/peers over HTTP, 10,000 stored peers all on a real interface, all returned (no limit)",
    );
    console.log(
      `    server: main.ts as its own process, linux driver; client: fetch, API token, one request at a time`,
    );
    console.log(
      `    back to back (host read shared within 1 s, the default): p50 ${ms(shared.p50)}, p90 ${
        ms(shared.p90)
      } (${LIST_CALLS} calls, ${(shared.bytes / 1e6).toFixed(1)} MB each) (target p50 ≤ 50 ms) ${
        shared.p50 <= 50 ? "PASS" : "FAIL"
      }`,
    );
    console.log(
      `    1.1 s apart (a fresh host read each call):            p50 ${ms(fresh.p50)}, p90 ${
        ms(fresh.p90)
      } (${FRESH_CALLS} calls)`,
    );
    console.log(
      `    one page, ?limit=100&offset=5000:                     p50 ${ms(paged.p50)}, p90 ${
        ms(paged.p90)
      }`,
    );
    console.log(
      `    for reference, \`wg show all dump\` alone:             ${ms(median(dumpTimes))}`,
    );
    console.log(
      `    setup: seed 10,000 peers in the store ${
        ms(seedMs)
      }; server start until all on the host ${ms(startMs)}`,
    );
    return shared.p50;
  } finally {
    await destroyNetns(ns.name);
  }
}

if (import.meta.main) {
  if (haveSystem("bench:tunnels", ["ip", "wg", "wireguard-go"], { root: true })) {
    // `deno task bench:tunnels apply` or `… list` runs one part.
    const only = Deno.args[0];
    if (!only || only === "apply") await benchApply();
    if (!only || only === "list") await benchList();
  }
}
