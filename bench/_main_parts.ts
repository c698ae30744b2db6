import { startTestServer } from "../tests/helpers/test_server.ts";
import { AttestClient } from "../lib/attest/client.ts";
import { loadCore } from "../lib/attest/core.ts";
import { randomMutationOrder } from "../lib/attest/mutation_order.ts";
await using t = await startTestServer();
const core = await loadCore();
const svc = t.services.attest;
const store = t.services.store;
const direct = {
  post: async (path: string, body: unknown) =>
    path === "/init" ? svc.init((body as any).public_key) : {},
};
const N = 4000;
const clients = await Promise.all(Array.from({ length: N }, async () => {
  const c = new AttestClient(core, direct as any);
  await c.init();
  return c;
}));
const reqs = clients.map((c) => c.prepare().request);
function time(name: string, fn: (i: number) => void) {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) fn(i);
  console.log(name.padEnd(28), ((performance.now() - t0) * 1000 / N).toFixed(1), "µs");
}
const rows: any[] = [];
time(
  "SELECT * (hit)",
  (i) =>
    rows[i] = store.get("SELECT * FROM attest_sessions WHERE session_id = ?", reqs[i].session_id),
);
time(
  "SELECT needed columns",
  (i) =>
    store.get(
      "SELECT session_id, public_key, salt, last_hash, pending_step, pending_order, gene_state, expires_at FROM attest_sessions WHERE session_id = ?",
      reqs[i].session_id,
    ),
);
time("structuredClone job", (i) => structuredClone({ hb: reqs[i], session: rows[i], now: 1 }));
time("randomMutationOrder", () => randomMutationOrder());
const upd = (i: number) =>
  store.run(
    `UPDATE attest_sessions SET last_hash = ?, salt = ?, pending_step = pending_step + 1, pending_order = ?, gene_state = ?, chain_length = chain_length + 1, expires_at = ?, last_heartbeat_at = ? WHERE session_id = ? AND last_hash = ? AND pending_step = ?`,
    "ab".repeat(32),
    "cd".repeat(16),
    "AQEBAAAAAAA=",
    rows[i].gene_state,
    Date.now() + 1e6,
    Date.now(),
    rows[i].session_id,
    rows[i].last_hash,
    rows[i].pending_step,
  );
let t0 = performance.now();
for (let b = 0; b < N; b += 8) {
  store.tx(() => {
    for (let i = b; i < b + 8 && i < N; i++) upd(i);
  });
}
console.log("UPDATE in tx of 8".padEnd(28), ((performance.now() - t0) * 1000 / N).toFixed(1), "µs");
t0 = performance.now();
for (let b = 0; b < N; b += 64) {
  store.tx(() => {
    for (let i = b; i < b + 64 && i < N; i++) upd(i);
  });
}
console.log(
  "UPDATE in tx of 64".padEnd(28),
  ((performance.now() - t0) * 1000 / N).toFixed(1),
  "µs",
);
time("JSON.stringify body", (i) => JSON.stringify(reqs[i]));
