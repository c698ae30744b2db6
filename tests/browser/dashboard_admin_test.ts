/**
 * The dashboard in headless Chromium, as an administrator spends a day in it:
 * sign in, set the public host, create an interface and a peer, open the QR
 * dialog, download the configuration, watch a handshake arrive live, create a
 * zone and a record, fix a refused record, delete one after confirming, sign
 * out. Screenshots of every main page in light and dark mode go to
 * test-output/screenshots/.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems, screenshots } from "../helpers/dashboard.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: an administrator creates an interface, a peer and a zone, sees live transfer, and signs out";

/** Fails when the page scrolls sideways at a phone's width (tables scroll inside .table-wrap). */
async function fitsPhone(page: Page, what: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const over = document.documentElement.scrollWidth - width;
    // Name the outermost element sticking out, to say what to fix.
    const culprit = [...document.querySelectorAll("main *, header *")].find((el) =>
      el.getBoundingClientRect().right > width + 1 && !el.closest(".table-wrap")
    );
    return over > 0
      ? `${over} px, e.g. <${culprit?.tagName.toLowerCase()} class="${culprit?.className}">`
      : "";
  });
  assertEquals(overflow, "", `${what} scrolls sideways at 375 px`);
  if (size) await page.setViewportSize(size);
}

async function nav(page: Page, label: string, path: RegExp): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
  await page.waitForURL(path);
}

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchConsole(page);
  const shots: string[] = [];
  /** Screenshots in both schemes, after checking labels, header scopes and landmarks. */
  const capture = async (name: string) => {
    assertEquals(await accessibilityProblems(page), [], name);
    shots.push(...await screenshots(page, name));
  };
  const base = t.admin;
  try {
    await page.goto(`${base}/login`);
    await capture("login");
    await signIn(page, base, ADMIN.username, ADMIN.password);
    await page.getByRole("heading", { name: "Health" }).waitFor();
    // Keyboard users land on the skip link first, and it takes them to the content.
    await page.keyboard.press("Tab");
    assertEquals(
      await page.evaluate(() => document.activeElement?.textContent),
      "Skip to content",
    );
    await page.keyboard.press("Enter");
    assertEquals(await page.evaluate(() => document.activeElement?.id), "main");

    // Configurations need the server's public address.
    await nav(page, "Settings", /\/settings$/);
    await page.getByLabel("Public host").fill("vpn.example.org");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
    await capture("settings");

    // An interface, through the form.
    await nav(page, "Tunnels", /\/tunnels$/);
    await page.getByText("No WireGuard interface yet.").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("wg1");
    await page.getByLabel("Address", { exact: true }).fill("10.8.0.1/24");
    await page.getByRole("button", { name: "Create interface" }).click();
    await page.waitForURL(/\/tunnels\/[0-9a-f-]{36}\?done=created$/);
    await page.getByRole("status").filter({ hasText: "Interface created." }).waitFor();

    // A peer on it.
    await page.getByRole("link", { name: "Add peer" }).click();
    await page.waitForURL(/\/peers\/new\?interface_id=/);
    await capture("peer-new");
    await page.getByLabel("Name", { exact: true }).fill("alice-laptop");
    await page.getByLabel("DNS servers").fill("10.8.0.1");
    await page.getByRole("button", { name: "Create peer" }).click();
    await page.waitForURL(/\/peers\/[0-9a-f-]{36}\?done=created$/);
    const peerId = new URL(page.url()).pathname.split("/")[2];
    const peer = await t.services.tunnels.peers.view(peerId);
    assertEquals([peer.name, peer.address, peer.dns], ["alice-laptop", "10.8.0.2", "10.8.0.1"]);

    // The QR dialog: a button once hydrated, a modal dialog with the image.
    await page.getByRole("button", { name: "Show QR code" }).click();
    const dialog = page.getByRole("dialog", { name: "Configuration of alice-laptop" });
    const qr = dialog.getByRole("img", { name: "QR code of the configuration of alice-laptop" });
    await qr.waitFor();
    assert(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    await capture("peer-qr-dialog");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });

    // The configuration download.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download configuration" }).click(),
    ]);
    assertEquals(download.suggestedFilename(), "alice-laptop.conf");
    const conf = await Deno.readTextFile((await download.path())!);
    assertStringIncludes(conf, "[Interface]");
    assertStringIncludes(conf, "Address = 10.8.0.2/32");
    assertStringIncludes(conf, "Endpoint = vpn.example.org:51820");
    assertEquals(
      (await t.services.audit.list({ event_type: "peer.config_exported", limit: 10, offset: 0 }))
        .total,
      2,
      "the QR and the download are audited",
    );
    await capture("peer");

    // Live transfer: a handshake reported by the host shows up without a reload.
    await nav(page, "Peers", /\/peers$/);
    await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: 5000 });
    await page.evaluate(() => ((globalThis as { __noReload?: boolean }).__noReload = true));
    const row = page.locator(`tr[data-peer-id="${peerId}"]`);
    assertEquals(await row.locator('[data-cell="rx"]').innerText(), "—");
    const started = performance.now();
    t.services.events.emit("PeerHandshake", {
      id: peerId,
      interface_id: peer.interface_id,
      public_key: peer.public_key,
      latest_handshake: new Date().toISOString(),
      endpoint: "198.51.100.7:40000",
      rx_bytes: 1536 * 1024,
      tx_bytes: 42 * 1024,
    });
    await row.locator('[data-cell="rx"]', { hasText: "1.5 MiB" }).waitFor({ timeout: 2000 });
    const elapsed = performance.now() - started;
    console.log(`peer transfer appeared ${elapsed.toFixed(0)} ms after the PeerHandshake event`);
    assertEquals(await row.locator('[data-cell="tx"]').innerText(), "42 KiB");
    assertEquals(
      await row.locator('[data-cell="handshake"]').textContent(),
      "just now, connected",
    );
    assert(await page.evaluate(() => (globalThis as { __noReload?: boolean }).__noReload));
    // The search field filters rows as one types.
    await page.getByRole("searchbox", { name: "Search" }).fill("nobody");
    await page.getByText("No peer matches this search.").waitFor();
    await page.getByRole("searchbox", { name: "Search" }).fill("alice");
    await row.waitFor({ state: "visible" });
    await capture("peers");
    await fitsPhone(page, "/peers");

    await nav(page, "Tunnels", /\/tunnels$/);
    await capture("tunnels");
    await page.getByRole("link", { name: "wg1" }).click();
    await page.getByRole("heading", { name: "wg1" }).waitFor();
    // The interface's peers table sums what its peers report, live too.
    await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: 5000 });
    t.services.events.emit("PeerHandshake", {
      id: peerId,
      interface_id: peer.interface_id,
      public_key: peer.public_key,
      latest_handshake: new Date().toISOString(),
      endpoint: "198.51.100.7:40000",
      rx_bytes: 2 * 1024 * 1024,
      tx_bytes: 64 * 1024,
    });
    await page.locator('[data-cell="total-rx"]', { hasText: "2.0 MiB" }).waitFor({
      timeout: 2000,
    });
    await capture("tunnel");
    await fitsPhone(page, "the interface page");

    // A zone and a record.
    await nav(page, "Zones", /\/zones$/);
    const newZone = page.getByRole("region", { name: "New zone" });
    await newZone.getByLabel("Zone name").fill("example.org");
    await newZone.getByLabel("Administrator e-mail").fill("hostmaster@example.org");
    await newZone.getByRole("button", { name: "Create zone" }).click();
    await page.waitForURL(/\/zones\/example\.org\?done=created$/);
    const add = page.getByRole("region", { name: "Add a record" });
    await add.getByLabel("Name").fill("www");
    await add.getByLabel("Type").selectOption("A");
    await add.getByLabel("Value").fill("192.0.2.300");
    await add.getByRole("button", { name: "Add record" }).click();
    // Refused: the message sits next to the value, which keeps what was typed.
    const value = page.getByRole("region", { name: "Add a record" }).getByLabel("Value");
    await page.getByText('Invalid A value: "192.0.2.300" is not an IPv4 address').waitFor();
    assertEquals(await value.getAttribute("aria-invalid"), "true");
    assertEquals(await value.inputValue(), "192.0.2.300");
    // The refusal is answered with its status (400), which Chromium reports on the
    // console as a failed load of the document; that line is expected, nothing else is.
    assertEquals(errors, [
      "Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
    errors.length = 0;
    await capture("zone-error");
    await value.fill("192.0.2.10");
    await page.getByRole("button", { name: "Add record" }).click();
    await page.waitForURL(/done=record_created$/);
    const www = page.locator("tr", { hasText: "www.example.org" });
    await www.waitFor();
    assertStringIncludes(await www.innerText(), "192.0.2.10");
    await capture("zone");
    await fitsPhone(page, "the zone page");

    // Deleting asks first.
    await www.getByRole("link", { name: "Delete A www.example.org" }).click();
    await page.getByRole("heading", { name: "Delete record" }).waitFor();
    await capture("confirm-delete");
    await page.getByRole("button", { name: "Delete record" }).click();
    await page.waitForURL(/done=record_deleted$/);
    await page.getByRole("status").filter({ hasText: "Record deleted." }).waitFor();
    assertEquals((await t.services.dns.listRecords("example.org", "A")).records, []);

    await nav(page, "Zones", /\/zones$/);
    await capture("zones");
    await nav(page, "Users", /\/users$/);
    await capture("users");
    await nav(page, "Audit", /\/audit$/);
    await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: 5000 });
    await capture("audit");
    await nav(page, "Attestation", /\/attestation$/);
    await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor({ timeout: 5000 });
    // Heartbeats judged since the page was rendered arrive with the next window.
    const counters = t.services.attest.counters;
    counters.accepted += 12;
    for (let i = 0; i < 3; i++) counters.reject("signature");
    t.services.attestRates.tick();
    await page.getByRole("row", { name: /Bad signature/ }).waitFor({ timeout: 2000 });
    await capture("attestation");
    await nav(page, "Overview", /\/$/);
    await capture("overview");
    await fitsPhone(page, "the overview");

    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(`${base}/login`);
    await page.goto(`${base}/`);
    await page.waitForURL(/\/login\?next=%2F$/);
  } catch (err) {
    // Leave evidence of where it stopped.
    await page.screenshot({ path: "test-output/admin-failure.png", fullPage: true }).catch(
      () => {},
    );
    console.log(
      `failed at ${page.url()}:\n${await page.locator("main").innerText().catch(() => "")}`,
    );
    throw err;
  }
  console.log(
    `screenshots:\n  ${shots.map((s) => s.replace(/.*test-output/, "test-output")).join("\n  ")}`,
  );
  assertEquals(errors, []);
});
