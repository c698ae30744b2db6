/**
 * The History page of a route and of a peer in headless Chromium: a route
 * deleted from its list is found under "Recently deleted" and restored from
 * its history through the revert confirmation; a peer's rename is shown as a field diff and reverted the
 * same way; a refused revert (a later change) shows its reason on the
 * confirmation page and changes nothing.
 */
import { assert, assertEquals } from "../assert.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;

browserTest(
  "dashboard: a deleted route is restored from its History page with one confirmation, and a peer's rename reverted",
  async (browser) => {
    await using t = await startTestServer();
    const { tunnels } = t.services;
    const iface = await tunnels.interfaces.create(
      { name: "wg1", address_v4: "10.8.0.1/24" },
      "test",
    );
    const route = await tunnels.routes.create(
      { destination: "10.50.0.0/24", gateway: "10.8.0.9" },
      "test",
    );
    const peer = await tunnels.peers.create(iface.id, { name: "laptop" }, "test");
    await tunnels.peers.update(peer.id, { name: "phone" }, "test");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/routes`);
      await page.locator(`tr[data-route-id="${route.id}"]`).getByRole("link", { name: "Delete" })
        .click();
      await page.getByRole("button", { name: /Delete/ }).click();
      await page.waitForURL(`${t.admin}/routes?done=deleted`);
      assertEquals(await tunnels.routes.list(), []);

      const listed = (await axeViolations(page, "/routes with a deleted route"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(listed.length, 0, describeViolations(listed));
      await page.getByRole("region", { name: "Recently deleted" })
        .getByRole("link", { name: "10.50.0.0/24" }).click();
      await page.waitForURL(`${t.admin}/routes/${route.id}/history`);
      await page.getByText("This route is deleted; its history is kept.").waitFor();
      const deletion = page.locator("li.card").first();
      assert((await deletion.innerText()).includes("Deleted"));
      const blocking = (await axeViolations(page, "route history"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(blocking.length, 0, describeViolations(blocking));
      await deletion.getByRole("link", { name: /Revert/ }).click();
      await page.getByRole("button", { name: "Revert change" }).click();
      await page.waitForURL(`${t.admin}/routes/${route.id}/history?done=reverted`);
      await page.getByText("Change reverted").waitFor();
      assertEquals((await tunnels.routes.get(route.id)).destination, "10.50.0.0/24");
      await page.goto(`${t.admin}/routes`);
      assertEquals(await page.getByRole("region", { name: "Recently deleted" }).count(), 0);

      await page.goto(`${t.admin}/peers/${peer.id}`);
      await page.getByRole("link", { name: "History" }).click();
      await page.waitForURL(`${t.admin}/peers/${peer.id}/history`);
      const rename = page.locator("li.card").first();
      const row = rename.locator("tr", { has: page.locator("code", { hasText: /^name$/ }) });
      assertEquals((await row.innerText()).split("\t").map((s) => s.trim()), [
        "name",
        "laptop",
        "phone",
      ]);
      const renameHref = await rename.getByRole("link", { name: /Revert/ }).getAttribute("href");
      await rename.getByRole("link", { name: /Revert/ }).click();
      await page.getByRole("button", { name: "Revert change" }).click();
      await page.waitForURL(`${t.admin}/peers/${peer.id}/history?done=reverted`);
      assertEquals((await tunnels.peers.view(peer.id)).name, "laptop");

      // The rename is no longer the latest change: reverting it again is refused.
      await page.goto(`${t.admin}${renameHref}`);
      await page.getByRole("button", { name: "Revert change" }).click();
      await page.getByText("revert it first").waitFor();
      assertEquals((await tunnels.peers.view(peer.id)).name, "laptop");
    } finally {
      await context.close();
    }
    assertEquals(errors.filter((e) => !e.includes("409")), []);
  },
);
