/**
 * deno task bench:attest — heartbeats per second through the real attestation
 * listener (a separate server process), against the single-core node:crypto
 * Ed25519 verify rate measured in this run.
 *
 * Sessions are created first; then, round after round, every session sends
 * one valid heartbeat built by the reference client. A round's heartbeats are
 * prepared (signed, gene preview computed) before the round's clock starts
 * and sent by a small C load generator (bench/lib/loadgen.c), so the
 * measured phase spends the shared cores on the server, as with wrk. Five
 * rounds keep every session inside the rate limit.
 *
 * Before the measured rounds, separate warm-up sessions send rounds that are
 * not counted (40,000 heartbeats by default): a server that has been up for a
 * while runs its heartbeat path in V8's optimizing tier, but here TurboFan
 * took the hot functions (#check, verifyHeartbeat, the route) only after
 * ~35,000 heartbeats, and compiling them cost ~150 ms on V8's background
 * threads in the middle of a round. Without the warm-up, the measured rounds
 * cost 110–180 µs of server CPU per heartbeat; after it, ~95–115.
 *
 * `--database-url postgres://…` runs the servers on that PostgreSQL database
 * (it should be empty: docs/scaling.md) and `--instances N` starts N of them
 * on it, each session talking to one instance, each round's heartbeats sent
 * to all instances at once (the load balancer's view). Server CPU is the
 * Palisade processes' only; PostgreSQL's own is not counted.
 */
import { Buffer } from "node:buffer";
import { generateKeyPairSync, sign, verify } from "node:crypto";
import { AttestClient, fetchTransport, type PreparedHeartbeat } from "../lib/attest/client.ts";
import { canonicalPayload } from "../lib/attest/canonical.ts";
import { loadCore } from "../lib/attest/core.ts";
import { buildLoadgen, postRequest, runLoad } from "./lib/loadgen.ts";
import {
  cpuByThread,
  cpuSeconds,
  type ServerProcess,
  startServerProcess,
} from "./lib/server_process.ts";
import { percentile } from "./lib/stats.ts";
import { storeArgs } from "./lib/store_args.ts";

const SESSIONS = Number(Deno.env.get("BENCH_SESSIONS") ?? 4000);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 5);
const CONNECTIONS = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 64);
const WARMUP_SESSIONS = Number(Deno.env.get("BENCH_WARMUP_SESSIONS") ?? 8000);
const WARMUP_ROUNDS = Math.min(5, Number(Deno.env.get("BENCH_WARMUP_ROUNDS") ?? 5));

/** Single-core node:crypto verifies per second on a heartbeat-sized payload. */
function measureVerifyRate(sample: PreparedHeartbeat): number {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const r = sample.request;
  const payload = Buffer.from(canonicalPayload({
    sessionId: r.session_id,
    prevHash: r.prev_hash,
    timestamp: r.timestamp,
    events: r.entropy_data.events,
    stackState: r.stack_state,
    fingerprint: r.fingerprint,
    mutationStep: r.mutation_step,
    geneCommitment: r.gene_commitment,
  }));
  const sig = sign(null, payload, privateKey);
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) {
    for (let i = 0; i < 200; i++) if (verify(null, payload, publicKey, sig)) n++;
  }
  return n / ((performance.now() - start) / 1000);
}

async function pool<T>(
  items: T[],
  concurrency: number,
  fn: (item: T, worker: number) => Promise<void>,
) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    while (next < items.length) await fn(items[next++], w);
  }));
}

const core = await loadCore();
await using store = await storeArgs(Deno.args);
// Every session comes from this one address: the per-address limit on /init is off here.
const servers: ServerProcess[] = [];
for (let i = 0; i < store.instances; i++) {
  servers.push(await startServerProcess({ PALISADE_ATTEST_INIT_PER_MINUTE: "0", ...store.env }));
}
await using _stop = {
  async [Symbol.asyncDispose]() {
    for (const s of servers) await s[Symbol.asyncDispose]();
  },
};
const server = servers[0];
const urls = servers.map((s) => new URL(s.attest));
const transports = servers.map((s) => fetchTransport(s.attest));
/** Session i talks to instance i mod N. */
const instanceOf = (i: number) => i % servers.length;

console.log(
  `${store.label}: creating ${SESSIONS} sessions and ${WARMUP_SESSIONS} for the warm-up …`,
);
const clients = Array.from(
  { length: SESSIONS },
  (_, i) => new AttestClient(core, transports[instanceOf(i)]),
);
const warmup = Array.from(
  { length: WARMUP_SESSIONS },
  (_, i) => new AttestClient(core, transports[instanceOf(i)]),
);
await pool([...clients, ...warmup], 16, async (c) => void await c.init());

const loadgen = await buildLoadgen();

/** One round: every client sends one prepared heartbeat; each accepted one is committed to its client. */
async function round(cs: AttestClient[]) {
  const prepared = cs.map((c) => c.prepareHeartbeat());
  const requests = prepared.map((p, i) =>
    postRequest(urls[instanceOf(i)].host, "/hb", JSON.stringify(p.request))
  );
  // Collect this process's garbage now (the task runs it with --expose-gc), not
  // on the cores the server is being measured on.
  (globalThis as { gc?: () => void }).gc?.();
  const run = await runSpread(requests);
  const accepted = run.responses.map((r, i) => {
    const body = r.status === 200 ? JSON.parse(r.body) : {};
    if (!cs[i].isAccepted(body)) return false;
    cs[i].commit(prepared[i], body);
    return true;
  });
  return { run, accepted };
}

/** Each instance's share of `requests` at once; responses back in request order. */
async function runSpread(requests: Uint8Array[]) {
  const n = servers.length;
  const runs = await Promise.all(urls.map((u, k) =>
    runLoad(
      loadgen,
      u.hostname,
      Number(u.port),
      Math.max(1, Math.round(CONNECTIONS / n)),
      requests.filter((_, i) => instanceOf(i) === k),
    )
  ));
  const next = runs.map(() => 0);
  return {
    responses: requests.map((_, i) => runs[instanceOf(i)].responses[next[instanceOf(i)]++]),
    elapsedMs: Math.max(...runs.map((r) => r.elapsedMs)),
    cpuMs: runs.reduce((t, r) => t + r.cpuMs, 0),
  };
}

for (let r = 0; r < WARMUP_ROUNDS; r++) {
  const { accepted } = await round(warmup);
  if (accepted.includes(false)) throw new Error("a warm-up heartbeat was rejected");
}
const verifyRate = measureVerifyRate(clients[0].prepareHeartbeat());

let serverCpu = 0;
let clientCpuMs = 0;
const threadCpu = new Map<string, number>();
const latencies: number[] = [];
let accepted = 0;
let rejected = 0;
let sendMs = 0;
for (let r = 0; r < ROUNDS; r++) {
  const cpuOfAll = () => servers.reduce((t, s) => t + cpuSeconds(s.pid), 0);
  const cpuBefore = cpuOfAll();
  const threadsBefore = cpuByThread(server.pid);
  const { run, accepted: ok } = await round(clients);
  const roundCpu = cpuOfAll() - cpuBefore;
  serverCpu += roundCpu;
  console.log(
    `round ${r + 1}: ${(ok.length / run.elapsedMs * 1000).toFixed(0)} heartbeats/s, ${
      (roundCpu / ok.length * 1e6).toFixed(0)
    } µs of server CPU each`,
  );
  for (const [name, cpu] of cpuByThread(server.pid)) {
    threadCpu.set(name, (threadCpu.get(name) ?? 0) + cpu - (threadsBefore.get(name) ?? 0));
  }
  sendMs += run.elapsedMs;
  clientCpuMs += run.cpuMs;
  for (const res of run.responses) latencies.push(res.latencyMs);
  for (const a of ok) a ? accepted++ : rejected++;
}
const threadShare = [...threadCpu].filter(([, cpu]) => cpu > 0.01).sort((a, b) => b[1] - a[1]);

const rate = accepted / (sendMs / 1000);
const stats = await (await fetch(`${server.attest}/stats`)).json();
console.log(`store                          ${store.label}`);
console.log(
  `sessions                       ${SESSIONS} (max chain length ${stats.max_chain_length})`,
);
console.log(
  `warm-up (not counted)          ${WARMUP_SESSIONS} other sessions × ${WARMUP_ROUNDS} rounds`,
);
console.log(
  `heartbeats                     ${accepted} accepted, ${rejected} rejected over ${CONNECTIONS} connections`,
);
console.log(`accepted heartbeats/s          ${rate.toFixed(0)}`);
console.log(
  `latency p50 / p99              ${percentile(latencies, 50).toFixed(2)} ms / ${
    percentile(latencies, 99).toFixed(2)
  } ms`,
);
console.log(
  `server CPU per heartbeat       ${
    (serverCpu / (accepted + rejected) * 1e6).toFixed(0)
  } µs (all threads)`,
);
console.log(
  `  by thread (first instance)   ${
    threadShare.map(([n, c]) => `${n} ${(c / (accepted + rejected) * 1e6).toFixed(0)} µs`).join(
      ", ",
    )
  }`,
);
console.log(
  `load generator CPU per request ${(clientCpuMs * 1000 / (accepted + rejected)).toFixed(1)} µs`,
);
console.log(`node:crypto verify/s, 1 core   ${verifyRate.toFixed(0)}`);
console.log(`ratio                          ${(rate / verifyRate).toFixed(3)} (target ≥ 0.5)`);
if (rejected > 0) Deno.exitCode = 1;
