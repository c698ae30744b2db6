/**
 * The console and diagnostics pages in headless Chromium: an administrator
 * picks a command from the console's drop-down, runs it and reads its output
 * on the page; a refused target shows next to the field; then the
 * diagnostics page shows every subsystem with its status and opens one
 * subsystem on its own.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems, screenshots } from "../helpers/dashboard.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: a console command runs from its page and the diagnostics page shows every subsystem";
/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const SUBSYSTEMS = ["database", "tunnels", "firewall", "routes", "dns", "attestation", "backups"];

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  await t.services.dns.createZone("test", {
    name: "example.org",
    admin_email: "admin@example.org",
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchConsole(page);
  try {
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    const main = page.getByRole("navigation", { name: "Main" });

    await main.getByRole("link", { name: "Console" }).click();
    await page.waitForURL(/\/console$/);
    const form = page.getByRole("region", { name: "Run a command" });
    await form.getByLabel("Command", { exact: true }).selectOption("zones list");
    await form.getByRole("button", { name: "Run" }).click();
    const out = page.locator("[data-console-output]");
    await out.waitFor();
    const zones = JSON.parse(await out.innerText());
    assertEquals(zones.map((z: { name: string }) => z.name), ["example.org"]);
    assertEquals(await form.getByLabel("Command", { exact: true }).inputValue(), "zones list");
    assertEquals(await accessibilityProblems(page), []);
    await screenshots(page, "console");

    // Shell syntax in the target: refused next to the field, nothing shown as output.
    await form.getByLabel("Command", { exact: true }).selectOption("interfaces show");
    await form.getByLabel("Target").fill("wg0 && reboot");
    await form.getByRole("button", { name: "Run" }).click();
    const refusal = page.locator("#f-target-error");
    await refusal.waitFor();
    assertEquals(
      await refusal.innerText(),
      'Field "target" contains "&&", which the console never accepts',
    );
    assertEquals(await out.count(), 0);

    await main.getByRole("link", { name: "Diagnostics" }).click();
    await page.waitForURL(/\/diagnostics$/);
    for (const name of SUBSYSTEMS) {
      const row = page.locator(`tr[data-subsystem="${name}"]`);
      const status = await row.locator(".badge").innerText();
      assert(["ok", "warn", "fail", "off"].includes(status), `${name}: ${status}`);
      await page.getByRole("region", { name: new RegExp(`^${name} `) }).waitFor();
    }
    assertEquals(
      await page.locator('tr[data-subsystem="database"] .badge').innerText(),
      "ok",
    );
    assertEquals(await accessibilityProblems(page), []);
    await screenshots(page, "diagnostics");

    await page.locator('tr[data-subsystem="database"]').getByRole("link", { name: "(alone)" })
      .click();
    await page.waitForURL(/\/diagnostics\?subsystem=database$/);
    assertEquals(
      await page.getByRole("heading", { level: 1 }).innerText(),
      "Diagnostics: database",
    );
    assertEquals(await page.locator("[data-subsystem-section]").count(), 1);
  } catch (err) {
    await page.screenshot({ path: "test-output/console-failure.png", fullPage: true })
      .catch(() => {});
    console.log(
      `failed at ${page.url()}:\n${await page.locator("main").innerText().catch(() => "")}`,
    );
    throw err;
  }
  // The refused run answered 400, which Chromium logs once.
  assertEquals(errors.length, 1, errors.join("\n"));
  assert(errors[0].includes("400"), errors[0]);
});
