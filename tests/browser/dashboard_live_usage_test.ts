/**
 * The live peers table shows a limited peer's quota usage and days left, and
 * the usage rises without a reload as accounting passes announce it
 * (`PeerUsage`, docs/peer_lifecycle.md "Live usage"), in headless Chromium.
 * The accounting is driven through the enforcer's `account()` with host
 * reads written by hand; the page passes axe with the column.
 */
import { assert, assertEquals } from "../assert.ts";
import { counterRead } from "../helpers/live_counters.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;

browserTest(
  "dashboard: the peers table shows quota usage and days left, and the usage rises live without a reload",
  async (browser) => {
    await using t = await startTestServer();
    const { tunnels } = t.services;
    const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "t");
    const peer = await tunnels.peers.create(iface.id, { name: "laptop" }, "test");
    await tunnels.peers.create(iface.id, { name: "phone" }, "test");
    // Twelve days ahead less an hour: "12 days left" whatever the time of day.
    const expires = new Date(Date.now() + 12 * DAY_MS - 3_600_000).toISOString();
    await tunnels.limits.set(peer.id, { quota_bytes: 4 * MIB, expires_at: expires }, "test");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/peers`);
      await page.getByRole("status").filter({ hasText: /^Live$/ }).first().waitFor();
      await page.evaluate(() => ((globalThis as { __noReload?: boolean }).__noReload = true));
      const cell = page.locator(`tr[data-peer-id="${peer.id}"] [data-cell="usage"]`);
      const meter = cell.getByRole("meter");
      assertEquals(await meter.getAttribute("aria-label"), "Traffic used: 0 B of 4.0 MiB");
      assert((await cell.innerText()).includes("12 days left"), await cell.innerText());
      const other = page.locator('tr:has-text("phone") [data-cell="usage"]');
      assertEquals(await other.innerText(), "no limits");

      const enforcer = tunnels.limitEnforcer;
      await enforcer.account(counterRead(peer.public_key, 100, 100)); // the baseline
      await enforcer.account(counterRead(peer.public_key, MIB + 100, 100));
      await page.locator(
        `tr[data-peer-id="${peer.id}"] meter[aria-label="Traffic used: 1.0 MiB of 4.0 MiB"]`,
      )
        .waitFor();
      assertEquals(await meter.getAttribute("value"), String(MIB));
      await enforcer.account(counterRead(peer.public_key, 2 * MIB + 100, MIB / 2 + 100));
      await page.locator(
        `tr[data-peer-id="${peer.id}"] meter[aria-label="Traffic used: 2.5 MiB of 4.0 MiB"]`,
      )
        .waitFor();
      assertEquals(await meter.getAttribute("value"), String(2.5 * MIB));
      assert(
        await page.evaluate(() => (globalThis as { __noReload?: boolean }).__noReload === true),
        "the page was not reloaded",
      );
      const found = (await axeViolations(page, "peers page with the usage column"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(found.length, 0, describeViolations(found));
      assertEquals(errors, []);
    } finally {
      await context.close();
    }
  },
);
