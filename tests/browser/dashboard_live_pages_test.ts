/**
 * The list pages follow the event stream without a reload, in headless
 * Chromium: a zone created through the DNS service appears on the open zones
 * page, a record on the open zone page, an interface on the tunnels page, a
 * setting on the settings page (while a half-edited settings form is left
 * alone). And a dropped event socket shows "Offline, retrying" until the
 * stream reconnects, then "Live" again.
 */
import type { Page, WebSocketRoute } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only: a busy machine stretches how long each takes. */
const HANG_MS = 15_000;

const status = (page: Page, text: RegExp) =>
  page.getByRole("status").filter({ hasText: text }).first();

/** Waits for the page's event socket, then marks the document so a reload would show. */
async function live(page: Page): Promise<void> {
  await status(page, /^Live$/).waitFor({ timeout: HANG_MS });
  await page.evaluate(() => ((globalThis as { __noReload?: boolean }).__noReload = true));
}

function notReloaded(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as { __noReload?: boolean }).__noReload === true);
}

browserTest(
  "dashboard: zones, records, interfaces and settings appear live on open pages",
  async (browser) => {
    await using t = await startTestServer();
    const { dns, settings, tunnels } = t.services;
    const page = await browser.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);

    await page.goto(`${t.admin}/zones`);
    await live(page);
    await dns.createZone("test", { name: "live.example", admin_email: "hostmaster@live.example" });
    await page.locator("#zones-table").getByRole("link", { name: "live.example" }).waitFor();
    assert(await notReloaded(page), "the zones page was not reloaded");

    await page.goto(`${t.admin}/zones/live.example`);
    await live(page);
    await dns.createRecord("test", "live.example", {
      domain: "www.live.example",
      type: "A",
      value: "192.0.2.77",
    });
    await page.locator("#records-table").getByText("192.0.2.77").waitFor();
    assert(await notReloaded(page), "the zone page was not reloaded");

    await page.goto(`${t.admin}/tunnels`);
    await live(page);
    await tunnels.interfaces.create({ name: "wg7", address_v4: "10.77.0.1/24" }, "test");
    await page.locator("#interfaces-table").getByRole("link", { name: "wg7" }).waitFor();
    assert(await notReloaded(page), "the tunnels page was not reloaded");

    await page.goto(`${t.admin}/settings`);
    await live(page);
    const host = page.getByLabel("Public host");
    await settings.put({ key: "wireguard.server_host", value: "vpn.live.example" }, "test");
    await page.waitForFunction(
      () =>
        (document.getElementById("f-wireguard-server_host") as HTMLInputElement)?.value ===
          "vpn.live.example",
    );
    assert(await notReloaded(page), "the settings page was not reloaded");
    // A field being edited is not overwritten: the pill asks for a reload instead.
    await host.fill("typed.by.me");
    await settings.put({ key: "wireguard.server_port", value: "51999" }, "test");
    await status(page, /Changed elsewhere/).waitFor();
    assertEquals(await host.inputValue(), "typed.by.me");
    assertEquals(errors, []);
  },
);

browserTest(
  "dashboard: a dropped event socket shows Offline, then Live after it reconnects",
  async (browser) => {
    await using t = await startTestServer();
    const page = await browser.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    // Every event socket of the page goes through here, so the test can drop it and refuse new ones.
    let current: WebSocketRoute | null = null;
    let refuse = false;
    let attempts = 0;
    await page.routeWebSocket(/\/api\/v1\/ws$/, (ws) => {
      attempts++;
      if (refuse) void ws.close({ code: 1011, reason: "Refused by the test" });
      else {
        current = ws;
        ws.connectToServer();
      }
    });
    await page.goto(`${t.admin}/zones`);
    await live(page);

    refuse = true;
    const before = attempts;
    await current!.close({ code: 1012, reason: "Dropped by the test" });
    await status(page, /^Offline, retrying$/).waitFor();
    // It keeps retrying (with backoff) while refused, and stays offline meanwhile.
    const deadline = Date.now() + HANG_MS;
    while (attempts < before + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert(attempts >= before + 2, `${attempts - before} reconnect attempts while refused`);
    assertEquals(await status(page, /Offline|Connecting/).count(), 1);

    refuse = false;
    await status(page, /^Live$/).waitFor();
    // Live again means events again: a zone made now shows without a reload.
    await t.services.dns.createZone("test", {
      name: "back.example",
      admin_email: "h@back.example",
    });
    await page.locator("#zones-table").getByRole("link", { name: "back.example" }).waitFor();
    assert(await notReloaded(page), "the page was not reloaded");
    assertEquals(errors, []);
  },
);

browserTest(
  "dashboard: an interface's and a peer's pages follow their changes live",
  async (browser) => {
    await using t = await startTestServer();
    const { tunnels } = t.services;
    const wg = await tunnels.interfaces.create({ name: "wg3", address_v4: "10.33.0.1/24" }, "test");
    const page = await browser.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);

    await page.goto(`${t.admin}/tunnels/${wg.id}`);
    await live(page);
    const peer = await tunnels.peers.create(wg.id, { name: "phone-live" }, "test");
    await page.locator(`tr[data-peer-id="${peer.id}"]`).getByRole("link", { name: "phone-live" })
      .waitFor();
    await page.locator("#interface-state").getByText("1 stored, 1 enabled").waitFor();
    assert(await notReloaded(page), "the interface page was not reloaded");

    await page.goto(`${t.admin}/peers/${peer.id}`);
    await live(page);
    await tunnels.peers.disable(peer.id, "test");
    await page.locator(`tr[data-peer-id="${peer.id}"]`).getByText("disabled").waitFor();
    await tunnels.peers.update(peer.id, { name: "phone-renamed" }, "test");
    await page.locator(`tr[data-peer-id="${peer.id}"]`).getByRole("link", { name: "phone-renamed" })
      .waitFor();
    assert(await notReloaded(page), "the peer page was not reloaded");
    assertEquals(errors, []);
  },
);

browserTest(
  "dashboard: the overview's counts and the users table follow changes live",
  async (browser) => {
    await using t = await startTestServer();
    const page = await browser.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);

    await page.goto(`${t.admin}/`);
    await live(page);
    const zones = page.locator("#overview-counts .stat", { hasText: "Zones" }).locator("dd");
    assertEquals(await zones.innerText(), "0");
    await t.services.dns.createZone("test", {
      name: "count.example",
      admin_email: "h@count.example",
    });
    await zones.getByText("1", { exact: true }).waitFor();
    assert(await notReloaded(page), "the overview was not reloaded");

    await page.goto(`${t.admin}/users`);
    await live(page);
    await t.addUser("carol-live", "viewer");
    await page.locator("#users-table").getByRole("rowheader", { name: "carol-live" }).waitFor();
    assert(await notReloaded(page), "the users page was not reloaded");
    assertEquals(errors, []);
  },
);
