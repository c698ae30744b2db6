/**
 * The peers page with 1,000 peers in headless Chromium: it loads, hydrates,
 * patches one row from a handshake event within 2 seconds, and filters as
 * one types. Prints the load and hydration times.
 */
import { assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { seedPeers } from "../helpers/dashboard.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const NAME = "dashboard: the peers page with 1,000 peers hydrates and shows a handshake within 2 s";

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const { peerIds, interfaceId } = await seedPeers(t, 1000);
  const page = await browser.newPage();
  const errors = watchConsole(page);
  await signIn(page, t.admin, ADMIN.username, ADMIN.password);

  const started = performance.now();
  await page.goto(`${t.admin}/peers`);
  const loaded = performance.now() - started;
  // The status turns to Live once the island has hydrated and its socket is open.
  await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: 10_000 });
  const live = performance.now() - started;
  assertEquals(await page.locator("tbody tr").count(), 1000);

  const target = t.services.tunnels.peers.view(peerIds[777]);
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
  await row.locator('[data-cell="rx"]', { hasText: "5.0 GiB" }).waitFor({ timeout: 2000 });
  const patched = performance.now() - sent;
  assertEquals(await row.locator('[data-cell="tx"]').innerText(), "123 B");

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
