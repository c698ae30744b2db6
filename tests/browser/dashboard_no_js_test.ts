/**
 * With JavaScript off, the dashboard still does its job: forms post and
 * redirect, the QR code has its own page, destructive actions are confirmed
 * on a page of their own.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard without JavaScript: create an interface and a peer, see its QR page, delete it";

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  await t.services.settings.put({ key: "wireguard.server_host", value: "vpn.example.org" }, "t");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await signIn(page, t.admin, ADMIN.username, ADMIN.password);

  await page.goto(`${t.admin}/tunnels`);
  await page.getByLabel("Name", { exact: true }).fill("wg1");
  await page.getByLabel("Address", { exact: true }).fill("10.8.0.1/24");
  await page.getByRole("button", { name: "Create interface" }).click();
  await page.waitForURL(/\/tunnels\/[0-9a-f-]{36}\?done=created$/);
  // The peers table is server-rendered, so it is there without its island.
  await page.getByRole("link", { name: "Add peer" }).click();
  await page.getByLabel("Name", { exact: true }).fill("bob-phone");
  await page.getByRole("button", { name: "Create peer" }).click();
  await page.waitForURL(/\/peers\/[0-9a-f-]{36}\?done=created$/);
  await page.locator("tr", { hasText: "bob-phone" }).waitFor();

  // Without the dialog, "Show QR code" is a link to the QR page.
  await page.getByRole("link", { name: "Show QR code" }).click();
  await page.waitForURL(/\/qr$/);
  const qr = page.getByRole("img", { name: "QR code of the configuration of bob-phone" });
  assert(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth > 0));
  await page.getByRole("link", { name: "bob-phone" }).click();

  await page.getByRole("link", { name: "Delete…" }).click();
  await page.getByText("Delete peer bob-phone").waitFor();
  await page.getByRole("button", { name: "Delete bob-phone" }).click();
  await page.waitForURL(/\/peers\?done=deleted$/);
  await page.getByRole("status").filter({ hasText: "Peer deleted." }).waitFor();
  assertEquals(await t.services.tunnels.peers.count(), 0);
  assertEquals(errors, []);
  await context.close();
});
