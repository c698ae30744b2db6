/**
 * The dashboard's render budget: with 1,000 peers stored, the median of 9
 * renders of `/peers` (after 3 warm-up renders), timed around `fetch` in the
 * same process as the server. Target < 100 ms. A benchmark rather than a
 * test: a wall-clock bound fails on a busy machine while nothing is wrong
 * (tests/dashboard/budget_test.ts checks the render's SQL statements instead).
 *
 * Run: deno task bench:dashboard
 */
import { getPage, seedPeers } from "../tests/helpers/dashboard.ts";
import { startTestServer } from "../tests/helpers/test_server.ts";

const PEERS = 1000;
const WARM_UP = 3;
const RENDERS = 9;
const TARGET_MS = 100;

if (import.meta.main) {
  await using t = await startTestServer();
  await seedPeers(t, PEERS);
  const cookie = await t.login();
  // The first renders compile the code paths; an administrator's later visits are what counts.
  for (let i = 0; i < WARM_UP; i++) await getPage(t, "/peers", cookie);
  const times: number[] = [];
  let html = "";
  for (let i = 0; i < RENDERS; i++) {
    const started = performance.now();
    const res = await fetch(`${t.admin}/peers`, { headers: { cookie } });
    html = await res.text();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`GET /peers answered ${res.status}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const rows = html.match(/<tr hidden=|<tr data-peer-id=/g)?.length ?? 0;
  if (rows !== PEERS) throw new Error(`the page has ${rows} rows, not ${PEERS}`);
  console.log(
    `peers page with ${PEERS} peers: server render median ${median.toFixed(1)} ms ` +
      `(min ${times[0].toFixed(1)}, max ${times.at(-1)!.toFixed(1)}), ` +
      `${(html.length / 1024).toFixed(0)} KiB of HTML; target < ${TARGET_MS} ms: ` +
      (median < TARGET_MS ? "met" : "MISSED"),
  );
}
