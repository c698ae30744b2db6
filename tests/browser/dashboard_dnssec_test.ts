/**
 * The zone page's DNSSEC panel in headless Chromium: the RSA key size shows
 * only while RSASHA256 is chosen; an administrator enables DNSSEC from the
 * page, sees the zone signed with the DS line the DNS API reports, and
 * copies the DS records with the panel's button.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems } from "../helpers/dashboard.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only: a busy machine stretches how long each takes. */
const HANG_MS = 15_000;
const ZONE = "example.org";

browserTest(
  "dashboard: DNSSEC is enabled from the zone page, which shows the DS line to copy",
  async (browser) => {
    await using t = await startTestServer();
    await t.services.dns.createZone("test", { name: ZONE, admin_email: `hostmaster@${ZONE}` });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/zones/${ZONE}`);
      const panel = page.getByRole("region", { name: "DNSSEC" });
      await panel.getByText("Unsigned", { exact: true }).waitFor();

      // The key size is RSA's alone: hidden for the default algorithm, shown for RSASHA256.
      const algorithm = panel.getByLabel("Algorithm");
      const keySize = panel.getByLabel("RSA key size");
      assertEquals(await algorithm.inputValue(), "ECDSAP256SHA256");
      assertEquals(await keySize.isVisible(), false, "key size hidden for ECDSAP256SHA256");
      await algorithm.selectOption("RSASHA256");
      await keySize.waitFor({ state: "visible" });
      await algorithm.selectOption("ECDSAP256SHA256");
      await keySize.waitFor({ state: "hidden" });

      await panel.getByRole("button", { name: "Enable DNSSEC" }).click();
      await page.waitForURL(/\?done=dnssec_enabled$/);
      await panel.getByText("Signed", { exact: true }).waitFor();
      assertEquals(await accessibilityProblems(page), []);

      const status = (await (await dnsApi(t)).get(`/zones/${ZONE}/dnssec`)).body as {
        ds_records: { key_tag: string; algorithm: string; digest_type: string; digest: string }[];
      };
      const expected = status.ds_records.map((d) =>
        `${ZONE}. IN DS ${d.key_tag} ${d.algorithm} ${d.digest_type} ${d.digest}`
      );
      assertEquals(expected.length, 2, "SHA-256 and SHA-384 of the KSK");
      const box = panel.locator("pre.ds-lines");
      assertEquals((await box.innerText()).trim().split("\n"), expected);

      await panel.getByRole("button", { name: "Copy DS records" }).click();
      await panel.getByText("Copied.").waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assertEquals(copied.trim().split("\n"), expected);
    } catch (err) {
      await page.screenshot({ path: "test-output/dnssec-failure.png", fullPage: true })
        .catch(() => {});
      console.log(
        `failed at ${page.url()}:\n${await page.locator("main").innerText().catch(() => "")}`,
      );
      throw err;
    } finally {
      await context.close();
    }
    assert(errors.length === 0, `console errors: ${errors.join("\n")}`);
  },
);
