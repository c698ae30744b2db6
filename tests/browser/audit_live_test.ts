import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

const NAME = "dashboard audit page shows a new audit record live, without a reload";
/** Bounds waits against a hang only: a busy machine stretches how long the record takes. */
const HANG_MS = 30_000;

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const page = await browser.newPage();
  const errors = watchConsole(page);
  await signIn(page, t.admin, ADMIN.username, ADMIN.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" })
    .click();
  await page.waitForURL(`${t.admin}/audit`);
  // The island is hydrated and its socket is up.
  await page.getByRole("status").filter({ hasText: "Live" }).waitFor({ timeout: HANG_MS });
  await page.evaluate(
    () => ((globalThis as unknown as { __noReload: boolean }).__noReload = true),
  );

  const token = await t.createToken("browser-test");
  // What the page fetches while the record arrives: nothing, as it comes over the event socket.
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  const started = performance.now();
  const put = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}` },
    json: { key: "wireguard.server_port", value: "51999" },
  });
  assertEquals(put.status, 200);
  const row = page.locator("tr", { hasText: 'Set "wireguard.server_port" to "51999"' });
  await row.waitFor({ timeout: HANG_MS });
  const elapsed = performance.now() - started;
  console.log(`audit row appeared ${elapsed.toFixed(0)} ms after the API call`);
  assert(
    await page.evaluate(() =>
      (globalThis as unknown as { __noReload?: boolean }).__noReload === true
    ),
  );
  assertEquals(await row.locator("td").nth(2).innerText(), "settings.updated");
  assertEquals(requests, [], "no request: no reload, no refetch, no polling");
  assertEquals(errors, []);
});
