/**
 * The networks, routes and firewall pages in headless Chromium: an
 * administrator creates a network, a route and a firewall rule from the
 * pages and sees each listed, disables the rule and sees its badge change;
 * then changes made through the HTTP API while a page is open show up in
 * its table without a reload, and what was typed in the page's form stays.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems, screenshots } from "../helpers/dashboard.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: networks, routes and firewall rules are created from their pages, and API changes appear live";
/** Bounds waits against a hang only: a busy machine stretches how long each takes. */
const HANG_MS = 15_000;

async function nav(page: Page, label: string, path: RegExp): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
  await page.waitForURL(path);
}

/** Waits for the page's event socket, then marks the document so a reload would show. */
async function live(page: Page): Promise<void> {
  await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: HANG_MS });
  await page.evaluate(() => ((globalThis as { __noReload?: boolean }).__noReload = true));
}

function notReloaded(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as { __noReload?: boolean }).__noReload === true);
}

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const wg1 = await t.services.tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/24" },
    "test",
  );
  const token = await t.createToken("browser-test");
  const api = (method: string, path: string, json?: unknown) =>
    call(`${t.admin}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}` },
      json,
    });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchConsole(page);
  /** Screenshots in both schemes (test-output/screenshots/), after checking labels, scopes, landmarks. */
  const capture = async (name: string) => {
    assertEquals(await accessibilityProblems(page), [], name);
    await screenshots(page, name);
  };
  try {
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);

    // A network, from the form; its page lists the first free addresses.
    await nav(page, "Networks", /\/networks$/);
    const newNetwork = page.getByRole("region", { name: "New network" });
    await newNetwork.getByLabel("Name").fill("lab");
    await newNetwork.getByLabel("Block").fill("10.20.0.0/16");
    await newNetwork.getByRole("button", { name: "Create network" }).click();
    await page.waitForURL(/\/networks\/[0-9a-f-]{36}\?done=created$/);
    await page.getByRole("status").filter({ hasText: "Network created." }).waitFor();
    const free = page.getByRole("list", { name: "Available addresses of lab" });
    assertEquals(await free.getByRole("listitem").first().innerText(), "10.20.0.1");
    assertEquals(await free.getByRole("listitem").count(), 50);
    await capture("network");
    await nav(page, "Networks", /\/networks$/);
    const labRow = page.getByRole("row", { name: /^lab / });
    assertEquals(
      (await labRow.innerText()).split("\t").slice(0, 4),
      ["lab", "10.20.0.0/16", "free", "0 / 65,534 (0 %)"],
    );

    // Live: a network made through the API joins the table; the typed form stays as it was.
    await live(page);
    await newNetwork.getByLabel("Name").fill("half-typed");
    const made = await api("POST", "/networks", { name: "api-net", cidr: "10.30.0.0/24" });
    assertEquals(made.status, 201);
    await page.getByRole("row", { name: /^api-net / }).waitFor();
    assert(await notReloaded(page), "the networks page was not reloaded");
    assertEquals(await newNetwork.getByLabel("Name").inputValue(), "half-typed");
    await capture("networks");

    // A route through wg1, from the form.
    await nav(page, "Routes", /\/routes$/);
    const newRoute = page.getByRole("region", { name: "New route" });
    await newRoute.getByLabel("Destination").fill("10.50.0.0/24");
    await newRoute.getByLabel("Gateway").fill("10.8.0.2");
    await newRoute.getByLabel("Interface").selectOption(wg1.id);
    await newRoute.getByRole("button", { name: "Create route" }).click();
    await page.waitForURL(/\/routes\?done=created$/);
    const routeRow = page.getByRole("row", { name: /^10\.50\.0\.0\/24 / });
    assertEquals(
      (await routeRow.innerText()).split("\t").slice(0, 4),
      ["10.50.0.0/24", "10.8.0.2", "wg1", "0"],
    );
    await capture("routes");

    // Live: the route deleted through the API leaves the table.
    await live(page);
    const [route] = await t.services.tunnels.routes.list();
    assertEquals((await api("DELETE", `/routes/${route.id}`)).status, 200);
    await routeRow.waitFor({ state: "detached" });
    await page.getByText("No route yet.").waitFor();
    assert(await notReloaded(page), "the routes page was not reloaded");

    // A firewall rule, from the form; then disabled from its row.
    await nav(page, "Firewall", /\/firewall$/);
    const newRule = page.getByRole("region", { name: "New rule" });
    await newRule.getByLabel("Name").fill("ssh");
    await newRule.getByLabel("Protocol").selectOption("tcp");
    await newRule.getByLabel("Port").fill("22");
    await newRule.getByLabel("Action").selectOption("accept");
    await newRule.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/firewall\?done=created$/);
    const ssh = page.getByRole("row", { name: /^1 ssh / });
    const state = ssh.locator('[data-cell="state"]');
    assertEquals(await state.innerText(), "enabled");
    await ssh.getByRole("button", { name: "Disable rule ssh" }).click();
    await page.waitForURL(/\/firewall\?done=disabled$/);
    assertEquals(await state.innerText(), "disabled");
    assertEquals((await t.services.tunnels.firewall.list())[0].enabled, false);

    // Live: enabled again and a second rule added, both through the API.
    await live(page);
    const [rule] = await t.services.tunnels.firewall.list();
    assertEquals((await api("POST", `/firewall/rules/${rule.id}/enable`)).status, 200);
    await state.filter({ hasText: /^enabled$/ }).waitFor();
    const dns = { name: "dns", protocol: "udp", port: 53, action: "accept" };
    assertEquals((await api("POST", "/firewall/rules", dns)).status, 201);
    await page.getByRole("row", { name: /^2 dns / }).waitFor();
    await capture("firewall");
    assert(await notReloaded(page), "the firewall page was not reloaded");
  } catch (err) {
    await page.screenshot({ path: "test-output/networks-failure.png", fullPage: true })
      .catch(() => {});
    console.log(
      `failed at ${page.url()}:\n${await page.locator("main").innerText().catch(() => "")}`,
    );
    throw err;
  }
  assertEquals(errors, []);
});
