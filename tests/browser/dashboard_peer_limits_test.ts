/**
 * A peer's expiry and quota set from its page in headless Chromium
 * (docs/peer_lifecycle.md): the form refuses a bad quota next to its field,
 * then stores a 4 MiB quota and an expiry twelve days ahead; the peer page
 * shows the usage bar and the days left, and both pass axe.
 */
import { assert, assertEquals } from "../assert.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const DAY_MS = 86_400_000;

browserTest(
  "dashboard: a peer's quota and expiry set from its page show as a usage bar and the days left",
  async (browser) => {
    await using t = await startTestServer();
    const { tunnels } = t.services;
    const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "t");
    const peer = await tunnels.peers.create(iface.id, { name: "laptop" }, "test");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/peers/${peer.id}`);
      await page.getByRole("link", { name: "Change expiry and quota" }).click();
      await page.waitForURL(`${t.admin}/peers/${peer.id}/limits`);

      await page.getByLabel("Quota (MiB per period)").fill("lots");
      await page.getByRole("button", { name: "Save" }).click();
      const quota = page.getByLabel("Quota (MiB per period)");
      assertEquals(await quota.getAttribute("aria-invalid"), "true");
      await page.getByText('Enter a number of MiB above 0, not "lots"').waitFor();
      assertEquals((await tunnels.limits.get(peer.id)).quota_bytes, null, "nothing stored");
      const refused = (await axeViolations(page, "limits form with an error"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(refused.length, 0, describeViolations(refused));

      // Twelve days ahead less an hour: "12 days left" whatever the time of day.
      const expires = new Date(Date.now() + 12 * DAY_MS - 3_600_000).toISOString();
      await quota.fill("4");
      await page.getByLabel("Expires at").fill(expires);
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(`${t.admin}/peers/${peer.id}`);
      const section = page.getByRole("region", { name: "Expiry and quota" });
      const meter = section.getByRole("meter");
      assertEquals(await meter.getAttribute("aria-label"), "Traffic used: 0 B of 4.0 MiB");
      assertEquals(await meter.getAttribute("max"), String(4 * 1024 * 1024));
      assert((await section.innerText()).includes("12 days left"), await section.innerText());
      const stored = await tunnels.limits.get(peer.id);
      assertEquals([stored.quota_bytes, stored.expires_at], [4 * 1024 * 1024, expires]);
      const shown = (await axeViolations(page, "peer page with limits"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(shown.length, 0, describeViolations(shown));
    } finally {
      await context.close();
    }
    assertEquals(errors.filter((e) => !e.includes("422") && !e.includes("400")), []);
  },
);
