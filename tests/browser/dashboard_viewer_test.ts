/**
 * A viewer in headless Chromium finds every page readable and no control that
 * changes state; a change sent anyway with the viewer's cookie is refused.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { screenshots } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: a viewer finds no control that changes state, and the server refuses one anyway";

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const { tunnels, dns } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "t");
  const peer = await tunnels.peers.create(iface.id, { name: "alice" }, "t");
  await dns.createZone("t", { name: "example.org", admin_email: "hostmaster@example.org" });
  await dns.createRecord("t", "example.org", { domain: "@", type: "A", value: "192.0.2.1" });
  const network = (await tunnels.networks.list())[0];
  await tunnels.routes.create({ destination: "10.50.0.0/24", gateway: "10.8.0.9" }, "t");
  await tunnels.firewall.create({ name: "ssh", protocol: "tcp", port: 22, action: "accept" }, "t");
  await t.addUser("vera", "viewer");

  const page = await browser.newPage();
  const errors = watchConsole(page);
  await signIn(page, t.admin, "vera", "vera-password-123");
  const navLinks = await page.getByRole("navigation", { name: "Main" }).getByRole("link")
    .allInnerTexts();
  assertEquals(navLinks, [
    "Overview",
    "Tunnels",
    "Peers",
    "Networks",
    "Routes",
    "Firewall",
    "Zones",
    "Audit",
    "Attestation",
    "Diagnostics",
    "Reconcile",
    "Settings",
    "API tokens",
    "Password",
    "Security",
  ]);

  const pages = [
    "/",
    "/tunnels",
    `/tunnels/${iface.id}`,
    "/peers",
    `/peers/${peer.id}`,
    "/zones",
    "/zones/example.org",
    "/networks",
    `/networks/${network.id}`,
    "/routes",
    "/firewall",
    "/audit",
    "/attestation",
    "/diagnostics",
    "/reconcile",
    "/settings",
  ];
  for (const path of pages) {
    await page.goto(`${t.admin}${path}`);
    await page.locator("main h1").waitFor();
    const posts = await page.locator('form[method="post"]:not([action="/logout"])').count();
    assertEquals(posts, 0, `${path}: forms that post`);
    const buttons = await page.getByRole("button").allInnerTexts();
    assert(
      buttons.every((b) => b === "Log out" || b === "Filter"),
      `${path}: buttons ${JSON.stringify(buttons)}`,
    );
    const changing = page.locator(
      'a[href$="/new"], a[href*="/new?"], a[href$="/delete"], a[href$="/revoke"], a[href$="/config"], a[href$="/qr"]',
    );
    assertEquals(await changing.count(), 0, `${path}: links to changes`);
  }
  // Settings are shown, not editable.
  await page.goto(`${t.admin}/settings`);
  assert(await page.getByLabel("Public host").evaluate((i: HTMLInputElement) => i.readOnly));
  await page.goto(`${t.admin}/peers/${peer.id}`);
  await page.getByText("Downloading a configuration needs the operator role.").waitFor();
  await screenshots(page, "viewer-peer");

  // Sent anyway with the viewer's session (same origin): refused.
  const res = await page.evaluate(async () => {
    const r = await fetch("/tunnels", {
      method: "POST",
      body: new URLSearchParams({ name: "wg9", address_v4: "10.9.0.1/24" }),
    });
    return r.status;
  });
  assertEquals(res, 403);
  assertEquals((await tunnels.interfaces.list()).length, 1);
  const users = await page.goto(`${t.admin}/users`);
  assertEquals(users?.status(), 403);
  // Both refusals are reported by Chromium as failed loads; nothing else may be logged.
  assertEquals(errors, [
    "Failed to load resource: the server responded with a status of 403 (Forbidden)",
    "Failed to load resource: the server responded with a status of 403 (Forbidden)",
  ]);

  await page.goto(`${t.admin}/`);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(`${t.admin}/login`);
  assertEquals(errors.length, 2);
});
