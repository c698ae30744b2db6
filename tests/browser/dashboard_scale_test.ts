/**
 * The peers page with 1,000 peers in headless Chromium: it loads, hydrates,
 * patches the one row of a handshake event and nothing else in the table,
 * and filters as one types. Prints the load, hydration and patch times; it
 * asserts none of them, as a busy machine stretches each (the waits are only
 * bounded against a hang).
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, countCalls, signIn, watchConsole } from "../helpers/browser.ts";
import { seedPeers } from "../helpers/dashboard.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: the peers page with 1,000 peers hydrates and a handshake event changes its row only";
/** Bounds waits against a hang only. */
const HANG_MS = 30_000;

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const { peerIds, interfaceId } = await seedPeers(t, 1000);
  const page = await browser.newPage();
  const errors = watchConsole(page);
  await signIn(page, t.admin, ADMIN.username, ADMIN.password);

  const calls = await countCalls(page);
  const started = performance.now();
  await page.goto(`${t.admin}/peers`);
  const loaded = performance.now() - started;
  // The status turns to Live once the island has hydrated and its socket is open.
  await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: HANG_MS });
  const live = performance.now() - started;
  assertEquals(await page.locator("tbody tr").count(), 1000);
  // Hydrating the table runs some of the islands' functions once per row: the counts see that.
  assert((await calls.take("/islands.js"))[0] >= 1000, "per-row work is counted");

  const target = await t.services.tunnels.peers.view(peerIds[777]);
  // Which rows of the table the event changes in the DOM (the table body itself, for rows
  // added, removed or moved).
  await page.evaluate(() => {
    const touched = new Set<string>();
    (globalThis as unknown as { __touched: Set<string> }).__touched = touched;
    const tbody = document.querySelector("table.peers tbody")!;
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement;
        const row = el?.closest<HTMLElement>("tr[data-peer-id]");
        touched.add(row?.dataset.peerId ?? el?.tagName ?? "?");
      }
    }).observe(tbody, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const sent = performance.now();
  t.services.events.emit("PeerHandshake", {
    id: target.id,
    interface_id: interfaceId,
    public_key: target.public_key,
    latest_handshake: new Date().toISOString(),
    endpoint: "203.0.113.9:51000",
    rx_bytes: 5 * 1024 ** 3,
    tx_bytes: 123,
  });
  const row = page.locator(`tr[data-peer-id="${target.id}"]`);
  await row.locator('[data-cell="rx"]', { hasText: "5.0 GiB" }).waitFor({ timeout: HANG_MS });
  const patched = performance.now() - sent;
  assertEquals(await row.locator('[data-cell="tx"]').innerText(), "123 B");
  const touched = await page.evaluate(() => [
    ...(globalThis as unknown as { __touched: Set<string> }).__touched,
  ]);
  assertEquals(touched, [target.id], "the event changed its own row and no other");
  // Work, not only DOM changes: re-rendering every row would run a row function 1,000 times, even
  // where the diff then leaves the DOM alone.
  const busiest = (await calls.take("/islands.js"))[0] ?? 0;
  assert(busiest < 500, `a function of the islands ran ${busiest} times for one event`);

  const search = page.getByRole("searchbox", { name: "Search" });
  const typed = performance.now();
  await search.fill(target.name);
  await page.locator("tbody tr:not([hidden])").first().waitFor();
  assertEquals(await page.locator("tbody tr:not([hidden])").count(), 1);
  const filtered = performance.now() - typed;
  console.log(
    `1,000 peers in Chromium: loaded in ${loaded.toFixed(0)} ms, live in ${live.toFixed(0)} ms, ` +
      `handshake shown ${patched.toFixed(0)} ms after the event, filtered in ${
        filtered.toFixed(0)
      } ms`,
  );
  assertEquals(errors, []);
});
