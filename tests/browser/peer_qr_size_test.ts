/**
 * The QR code is large enough to scan from a phone and honours the
 * configuration's choices: with script, the dialog's image is at least
 * 300 CSS px wide on a desktop and nearly the viewport's width at 390 px,
 * on white with a quiet zone, and it is fetched with the chosen device,
 * connection and endpoint; the QR page without script is as large.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

browserTest(
  "peer QR: at least 300 px on a desktop, nearly full width on a phone, with the chosen profile",
  async (browser) => {
    await using t = await startTestServer();
    const { tunnels, settings } = t.services;
    await settings.put({ key: "wireguard.server_host", value: "vpn.example.org" }, "t");
    const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "t");
    const peer = await tunnels.peers.create(iface.id, { name: "alice" }, "t");

    for (const [width, height, min] of [[1280, 800, 300], [390, 844, 390 * 0.85]]) {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const errors = watchConsole(page);
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/peers/${peer.id}`);
      await page.getByLabel("Device").selectOption("mobile");
      await page.getByLabel("Connection").selectOption("cellular");
      await page.getByRole("button", { name: "Apply choices" }).click();
      await page.waitForURL(/device=mobile&connection=cellular/);
      await page.getByText("mobile on cellular: MTU 1280, keepalive every 25 s.").waitFor();
      const fetched = page.waitForRequest((r) => r.url().includes("/qr?"));
      await page.getByRole("button", { name: "Show QR code" }).click();
      const url = new URL((await fetched).url());
      assertEquals(
        [
          url.searchParams.get("device"),
          url.searchParams.get("connection"),
          url.searchParams.get("format"),
        ],
        ["mobile", "cellular", "svg"],
      );
      const img = page.getByRole("dialog").getByRole("img", {
        name: "QR code of the configuration of alice",
      });
      await img.waitFor();
      const box = await img.evaluate((el: HTMLImageElement) => {
        const r = el.getBoundingClientRect();
        return { w: r.width, h: r.height, bg: getComputedStyle(el).backgroundColor };
      });
      assert(box.w >= min, `${width} px wide viewport: the QR is ${box.w} px wide, want ≥ ${min}`);
      assert(box.w <= width, `${width} px: the QR fits (${box.w} px)`);
      assertEquals(box.bg, "rgb(255, 255, 255)", "on white in every colour scheme");
      assertEquals(errors, []);
      await context.close();
    }

    // Without script: the QR page, as large.
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    await page.goto(`${t.admin}/peers/${peer.id}/qr?device=router&connection=ipv6`);
    const w = await page.getByRole("img", { name: "QR code of the configuration of alice" })
      .evaluate((el: HTMLImageElement) => el.getBoundingClientRect().width);
    assert(w >= 390 * 0.75, `the QR page's image is ${w} px wide at 390 px`);
    await context.close();
  },
);
