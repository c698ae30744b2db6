/**
 * deno task bench:soak — a mixed load on every listener of main.ts (its own
 * process) for BENCH_SOAK_MINUTES (default 10): attestation sessions and
 * heartbeats, DNS queries over UDP and TCP, DNS API record changes, tunnel
 * API peer changes and listings, and an event WebSocket. Each minute it
 * prints the operations served and the server's resident memory; at the end
 * the ratio of the last minute's memory to the second minute's (goal ≤ 1.10:
 * memory levels off once caches are warm, it does not grow with time).
 */
import { Buffer } from "node:buffer";
import { AttestClient, fetchTransport } from "../lib/attest/client.ts";
import { loadCore } from "../lib/attest/core.ts";
import { dnsPacket } from "../lib/dns/packet.ts";
import { startServerProcess } from "./lib/server_process.ts";

const MINUTES = Number(Deno.env.get("BENCH_SOAK_MINUTES") ?? 10);
const SESSIONS = Number(Deno.env.get("BENCH_SOAK_SESSIONS") ?? 300);
const GOAL = 1.10;

/** Resident memory of a process in MiB, from /proc. */
function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

const counts = {
  heartbeats: 0,
  inits: 0,
  dns_udp: 0,
  dns_tcp: 0,
  records: 0,
  peers: 0,
  listings: 0,
  events: 0,
  errors: 0,
};
type Kind = keyof typeof counts;
let running = true;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` every `everyMs` until the soak ends, counting successes under `kind`. */
async function loop(kind: Kind, everyMs: number, fn: () => Promise<boolean | void>) {
  while (running) {
    const started = performance.now();
    try {
      if ((await fn()) !== false) counts[kind]++;
    } catch {
      counts.errors++;
    }
    await pause(Math.max(0, everyMs - (performance.now() - started)));
  }
}

await using server = await startServerProcess({ PALISADE_ATTEST_INIT_PER_MINUTE: "0" });
const admin = { username: "admin", password: server.password };
const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const login = await fetch(`${server.admin}/api/v1/auth/login`, json("POST", admin));
const cookie = login.headers.get("set-cookie")!.split(";")[0];
const token = (await (await fetch(
  `${server.admin}/api/v1/auth/tokens`,
  json("POST", { name: "soak", expires_in_days: 1 }, { cookie }),
)).json()).raw_token;
const A = { authorization: `Bearer ${token}` };
const jwt =
  (await (await fetch(`${server.dnsApi}/api/v1/auth/login`, json("POST", admin))).json()).token;
const D = { authorization: `Bearer ${jwt}` };
await fetch(
  `${server.dnsApi}/api/v1/zones`,
  json("POST", { name: "soak.test", admin_email: "h@soak.test" }, D),
);
const iface = (await (await fetch(
  `${server.admin}/api/v1/interfaces`,
  json("POST", { name: "wg7", address_v4: "10.70.0.1/16" }, A),
)).json()).id;

const core = await loadCore();
const transport = fetchTransport(server.attest);
let clients: AttestClient[] = [];
async function newClient(): Promise<AttestClient> {
  const c = new AttestClient(core, transport);
  await c.init();
  counts.inits++;
  return c;
}
clients = await Promise.all(Array.from({ length: SESSIONS }, newClient));

const [dnsHost, dnsPort] = [server.dns.split(":")[0], Number(server.dns.split(":")[1])];
const udp = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
const names = ["soak.test", "www.soak.test", "nx.soak.test"];
const query = (i: number) =>
  new Uint8Array(dnsPacket.encode({
    type: "query",
    id: i & 0xffff,
    questions: [{ name: names[i % names.length], type: "A", class: "IN" }],
  }));
(async () => {
  try {
    for (;;) {
      await udp.receive();
      counts.dns_udp++;
    }
  } catch { /* closed at the end */ }
})();
// Deno's WebSocket takes headers in its second argument, which the DOM typings do not know.
const ws = new WebSocket(
  `${server.admin.replace("http", "ws")}/api/v1/ws`,
  { headers: A } as unknown as string[],
);
ws.onmessage = () => counts.events++;

let seq = 0;
const loops = [
  // Each session sends a heartbeat every 2.5 s (the spec's limit is 5 per 10 s); every
  // 20 heartbeats one session is replaced by a new one, so sessions come and go.
  loop("heartbeats", 1000 / (SESSIONS / 2.5), async () => {
    const i = seq++ % clients.length;
    if (seq % 20 === 0) clients[i] = await newClient();
    return await clients[i].heartbeat();
  }),
  loop("dns_udp", 1, async () => {
    for (let k = 0; k < 20; k++) {
      await udp.send(query(seq++), { transport: "udp", hostname: dnsHost, port: dnsPort });
    }
    return false; // counted as answers arrive
  }),
  loop("dns_tcp", 50, async () => {
    const conn = await Deno.connect({ hostname: dnsHost, port: dnsPort });
    try {
      const q = query(seq++);
      await conn.write(new Uint8Array([q.length >> 8, q.length & 255, ...q]));
      const buf = new Uint8Array(4096);
      const n = await conn.read(buf);
      if (!n || dnsPacket.decode(Buffer.from(buf.subarray(2, n))).type !== "response") {
        throw new Error("no answer");
      }
    } finally {
      conn.close();
    }
  }),
  loop("records", 50, async () => {
    const r = await fetch(
      `${server.dnsApi}/api/v1/zones/soak.test/records`,
      json("POST", { domain: `r${seq++ % 500}.soak.test`, type: "TXT", value: "soak" }, D),
    );
    const body = await r.json();
    if (r.status !== 201) return false;
    const d = await fetch(`${server.dnsApi}/api/v1/zones/soak.test/records/${body.id}`, {
      method: "DELETE",
      headers: D,
    });
    await d.body?.cancel();
    return true;
  }),
  loop("peers", 100, async () => {
    const r = await fetch(
      `${server.admin}/api/v1/interfaces/${iface}/peers`,
      json("POST", { name: `p${seq++}` }, A),
    );
    const body = await r.json();
    if (r.status !== 201) throw new Error(`peer ${r.status}`);
    const d = await fetch(`${server.admin}/api/v1/peers/${body.id}`, {
      method: "DELETE",
      headers: A,
    });
    await d.body?.cancel();
  }),
  loop("listings", 200, async () => {
    for (
      const url of [
        `${server.admin}/api/v1/peers`,
        `${server.dnsApi}/api/v1/zones`,
        `${server.admin}/api/v1/audit?limit=50`,
      ]
    ) {
      const r = await fetch(url, { headers: url.startsWith(server.dnsApi) ? D : A });
      await r.body?.cancel();
    }
  }),
];

console.log(
  `soak: ${MINUTES} min, ${SESSIONS} attestation sessions; each minute the operations served and the server's resident memory`,
);
const rss: number[] = [];
for (let minute = 1; minute <= MINUTES; minute++) {
  const before = { ...counts };
  await pause(60_000);
  rss.push(rssMiB(server.pid));
  const done = Object.entries(counts).map(([k, v]) => `${k} ${v - before[k as Kind]}`).join(", ");
  console.log(`minute ${minute}: RSS ${rss.at(-1)!.toFixed(1)} MiB; ${done}`);
}
running = false;
await Promise.all(loops);
udp.close();
ws.close();
const base = rss[Math.min(1, rss.length - 1)];
const ratio = rss.at(-1)! / base;
console.log(
  `RSS after minute ${rss.length} / after minute ${Math.min(2, rss.length)}: ${
    ratio.toFixed(3)
  } (goal ≤ ${GOAL}) ${ratio <= GOAL ? "PASS" : "FAIL"}`,
);
