/**
 * The upstream import and backups pages in headless Chromium: an
 * administrator pastes a provider's configuration, previews it (the redacted
 * plan, the textarea empty again, no private key in the DOM), imports it
 * after pasting again and lands on the new interface; then creates a backup
 * from the backups page and sees it listed.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems } from "../helpers/dashboard.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const PRIVATE = "WN1+5HoC2cfNESfCaQQm/mcPtM8mgoC4dsuKYwj1LFw=";
/** `echo $PRIVATE | wg pubkey` */
const PUBLIC = "r785rmXSgO5w3rYJI37hsSyzFMZZre+4D+vIbHLyxw4=";
const CONFIG = `[Interface]
PrivateKey = ${PRIVATE}
Address = 10.64.12.7/32
DNS = 10.64.0.1

[Peer]
PublicKey = 966CSnF7MKaLAZAVDGHqn6qkk4IrDpOun/OI/+WCsEk=
Endpoint = 198.51.100.7:51820
AllowedIPs = 0.0.0.0/0
`;

browserTest(
  "dashboard: an upstream configuration is previewed and imported, and a backup is created and listed",
  async (browser) => {
    await using t = await startTestServer();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tunnels" })
        .click();
      await page.getByRole("link", { name: "Import upstream…" }).click();
      await page.waitForURL(/\/tunnels\/import$/);
      const form = page.getByRole("region", { name: "Configuration" });
      await form.getByLabel("Interface name").fill("vpn-nl");
      await form.getByLabel("WireGuard configuration").fill(CONFIG);
      await form.getByRole("button", { name: "Preview" }).click();
      const preview = page.getByRole("region", { name: "Preview: nothing is stored yet" });
      await preview.waitFor();
      assert((await preview.innerText()).includes(PUBLIC), "the derived public key is shown");
      assertEquals(
        (await page.getByRole("row", { name: /DNS/ }).innerText()).split("\t").slice(0, 3),
        ["4", "[Interface]", "DNS"],
      );
      assertEquals(await form.getByLabel("WireGuard configuration").inputValue(), "");
      assertEquals(await form.getByLabel("Interface name").inputValue(), "vpn-nl");
      assertEquals(
        (await page.content()).includes(PRIVATE),
        false,
        "the private key is in the DOM",
      );
      assertEquals(await accessibilityProblems(page), [], "preview");

      await form.getByLabel("WireGuard configuration").fill(CONFIG);
      await form.getByRole("button", { name: "Import" }).click();
      await page.waitForURL(/\/tunnels\/[0-9a-f-]{36}\?done=imported(_unverified)?$/);
      await page.getByRole("status").filter({ hasText: "Upstream interface imported" }).waitFor();

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Backups" })
        .click();
      await page.waitForURL(/\/backups$/);
      await page.getByText("No backup yet.").waitFor();
      await page.getByRole("button", { name: "Create backup" }).click();
      await page.waitForURL(/\/backups\?done=created$/);
      const [b] = await t.services.backups.list();
      const row = page.locator(`tr[data-backup-id="${b.id}"]`);
      const cells = (await row.innerText()).split("\t");
      assertEquals([cells[0], cells[3], cells[4]], [b.id, "manual", String(b.schema_version)]);
      assert(
        (await row.getByRole("link", { name: "Download" }).getAttribute("href"))!.endsWith(
          `/backups/${b.id}/download`,
        ),
      );
      assertEquals(await accessibilityProblems(page), [], "backups");
    } finally {
      await page.close();
    }
    assertEquals(errors, []);
  },
);
