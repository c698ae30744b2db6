/**
 * A site's dashboard page in headless Chromium follows the site's traffic
 * without a reload: heartbeats and a token made by the reference client
 * with the site's Origin appear in its figures, over time and in its
 * sessions list within one history tick (5 s), pushed by `AttestSiteStats`.
 * The page passes the accessibility basics and is captured in both schemes.
 */
import { assertEquals } from "../assert.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems, screenshots } from "../helpers/dashboard.ts";
import { addSite, buildToken, postToken, siteClient } from "../helpers/site_tokens.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const SHOP = "https://shop.example";
/** Bounds waits against a hang only: a busy machine stretches how long each takes. */
const HANG_MS = 20_000;

browserTest(
  "dashboard: a site's page shows its heartbeats, tokens and sessions live",
  async (browser) => {
    await using t = await startTestServer();
    const site = await addSite(t, { name: "shop", origins: [SHOP], min_chain: 2 });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    await page.goto(`${t.admin}/attestation/sites/${site.id}`);
    await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor();
    await page.evaluate(() => ((globalThis as { __noReload?: boolean }).__noReload = true));
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`).innerText();
    assertEquals(await figure("accepted"), "0");

    const c = await siteClient(await loadCore(), t.attest, site, SHOP, Date.now);
    for (let i = 0; i < 2; i++) {
      await new Promise((r) => setTimeout(r, 2100));
      assertEquals(await c.heartbeat(), true);
    }
    const token = buildToken(c, site, { hn: "shop.example", iat: Date.now() });
    assertEquals((await postToken(t.attest, token, SHOP)).status, 200);

    await page.locator('[data-figure="issued"]', { hasText: /^1$/ }).waitFor();
    assertEquals([await figure("sessions"), await figure("accepted")], ["1", "2"]);
    await page.locator(`tr[data-session-id="${c.session!.session_id}"]`).waitFor();
    const hour = page.locator('tr[data-series="accepted"] td.num').first();
    assertEquals(await hour.innerText(), "2");
    assertEquals(
      await page.evaluate(() => (globalThis as { __noReload?: boolean }).__noReload),
      true,
      "updated in place, not reloaded",
    );
    assertEquals(await accessibilityProblems(page), []);
    await screenshots(page, "attestation-site");
    assertEquals(errors, []);
  },
);
