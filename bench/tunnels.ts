/**
 * Tunnel benchmarks on real WireGuard inside a private network namespace.
 *
 * (a) Applying 1,000 peers to an empty interface through Palisade's apply
 *     path (desired state from the store, one host read, diff, one
 *     `wg addconf`) against `wg syncconf` with the same peers, same run,
 *     rounds interleaved. Target ratio ≤ 1.5.
 * (b) p50 of PeerService.list() (one SQL query + one host dump, merged) with
 *     10,000 stored peers that are all on a real interface. Target ≤ 50 ms.
 *
 * Run: deno task bench:tunnels (root; ip, wg, wireguard-go).
 */
import { destroyNetns, netns, randomSuffix } from "../tests/helpers/netns.ts";
import { haveSystem, run } from "../tests/helpers/system.ts";
import { tunnelHarness } from "../tests/helpers/tunnels.ts";
import { LinuxDriver } from "../lib/host/linux_driver.ts";
import { desiredState } from "../lib/tunnel/desired_state.ts";
import { HostSync } from "../lib/tunnel/host_sync.ts";
import { silentLogger } from "../lib/log/log.ts";

const ROUNDS = 5;
const LIST_CALLS = 40;

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
    const [{ desired }] = desiredState(h.store, [iface.id]);
    const empty = { ...desired, peers: [] };
    const host = new HostSync(h.store, driver, silentLogger);

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

async function benchList() {
  const ns = await netns("pltun");
  try {
    const driver = new LinuxDriver({ netns: ns.name });
    await using h = await tunnelHarness(driver, { pollMs: 3_600_000 });
    const ifName = `pl${randomSuffix(6)}`;
    const iface = await h.tunnels.interfaces.create({
      name: ifName,
      address_v4: "10.95.0.1/18",
      listen_port: 51850,
    }, "bench");
    const t0 = performance.now();
    await h.tunnels.peers.createMany(
      iface.id,
      Array.from({ length: 10_000 }, (_, i) => ({ name: `peer${i}` })),
      "bench",
    );
    const setup = performance.now() - t0;
    const onHost = (await driver.read()).interfaces.get(ifName)!.peers.size;
    if (onHost !== 10_000) throw new Error(`${onHost} peers on the host, not 10000`);

    const measure = async (fresh: boolean, serialize: boolean) => {
      const times: number[] = [];
      for (let i = 0; i < LIST_CALLS; i++) {
        if (fresh) h.tunnels.telemetry.invalidate();
        const s = performance.now();
        const peers = await h.tunnels.peers.list();
        if (serialize) JSON.stringify(peers);
        times.push(performance.now() - s);
        if (peers.length !== 10_000 || !peers[0].telemetry?.on_host) {
          throw new Error("listing incomplete");
        }
      }
      return median(times);
    };
    const dumpTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      await run("ip", ["netns", "exec", ns.name, "wg", "show", "all", "dump"]);
      dumpTimes.push(performance.now() - s);
    }
    const fresh = await measure(true, false);
    const shared = await measure(false, false);
    const freshJson = await measure(true, true);
    console.log("(b) list 10,000 stored peers with live telemetry (p50 of %d calls)", LIST_CALLS);
    console.log(
      `    fresh host read every call (SQL + wg dump + ip, merged): ${ms(fresh)}`,
    );
    console.log(`    same, plus JSON.stringify of the result:                 ${ms(freshJson)}`);
    console.log(
      `    read shared within 1 s (the service's default):           ${
        ms(shared)
      } (target ≤ 50 ms) ${shared <= 50 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `    for reference, \`wg show all dump\` alone:                  ${ms(median(dumpTimes))}`,
    );
    console.log(`    setup: createMany 10,000 peers incl. apply: ${ms(setup)}`);
    return fresh;
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
