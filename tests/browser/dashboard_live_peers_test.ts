/**
 * The peers page stays current without a reload, in headless Chromium:
 * a peer created through the REST API appears in the open table, and a
 * burst of 1,000 `PeerChanged` events over 1,000 rows neither freezes the
 * page (a click right after the burst is handled at once) nor leaves it
 * stale (the rows and the count are the server's final state).
 *
 * Two durations are asserted because the issue sets them as the behaviour:
 * a new peer shows within 1 s, and a click is handled within 200 ms of being
 * sent. The click delay is measured in the page (the handler's time against
 * the input event's own timestamp), so a busy test process that is also the
 * server does not count against the page.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { seedPeers } from "../helpers/dashboard.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 30_000;

type Probe = {
  __delays: number[];
  __noReload: boolean;
  __frames: number;
  /** Frames received and time, when the click was handled. */
  __atClick: number[];
  /** When the table's caption last changed (the refetched rows were applied). */
  __applied: number;
};

/** Counts the event frames the page receives, so the test can say where in the burst the click fell. */
function countFrames(): void {
  const g = globalThis as unknown as Probe;
  g.__frames = 0;
  const Native = WebSocket;
  globalThis.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener("message", () => g.__frames++);
    }
  };
}

/** Waits for Live, marks the document (a reload would lose the mark), adds a probe button. */
async function prepare(page: Page): Promise<void> {
  await page.getByRole("status").filter({ hasText: /^Live$/ }).first().waitFor({
    timeout: HANG_MS,
  });
  await page.evaluate(() => {
    const g = globalThis as unknown as Probe;
    g.__noReload = true;
    g.__delays = [];
    const b = document.createElement("button");
    b.id = "probe";
    b.textContent = "Probe";
    b.style.position = "fixed";
    b.style.top = "0";
    b.style.right = "0";
    b.style.zIndex = "100";
    // How long the click waited between being sent to the page and its handler running.
    b.addEventListener("click", (e) => {
      g.__delays.push(performance.now() - e.timeStamp);
      g.__atClick = [g.__frames ?? 0, performance.now()];
    });
    document.body.append(b);
  });
}

const probe = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as Probe;
    return {
      delays: g.__delays,
      noReload: g.__noReload,
      atClick: g.__atClick,
      frames: g.__frames,
      applied: g.__applied,
    };
  });

browserTest(
  "dashboard: a peer created through the API appears on the open peers page",
  async (browser) => {
    await using t = await startTestServer();
    const { interfaceId } = await seedPeers(t, 3);
    const token = await t.createToken("live-test");
    const page = await browser.newPage();
    const errors = watchConsole(page);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    await page.goto(`${t.admin}/peers`);
    await prepare(page);
    assertEquals(await page.locator("tbody tr").count(), 3);

    const sent = performance.now();
    const res = await call(`${t.admin}/api/v1/interfaces/${interfaceId}/peers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      json: { name: "laptop-new" },
    });
    assertEquals(res.status, 201, JSON.stringify(res.body));
    const row = page.locator(`tr[data-peer-id="${res.body.id}"]`);
    await row.getByRole("link", { name: "laptop-new" }).waitFor({ timeout: HANG_MS });
    const appeared = performance.now() - sent;
    assertEquals(await page.locator("tbody tr").count(), 4);
    assertEquals(
      await page.locator("[data-peer-caption]").innerText(),
      "4 peers, with live handshakes and transfer",
    );
    assert((await probe(page)).noReload, "the page was not reloaded");
    console.log(`a peer created through the API appeared ${appeared.toFixed(0)} ms after the POST`);
    assert(appeared < 1000, `the new peer took ${appeared.toFixed(0)} ms to appear`);
    assertEquals(errors, []);
  },
);

browserTest(
  "dashboard: 1,000 PeerChanged events in a burst keep the peers page responsive and end current",
  async (browser) => {
    await using t = await startTestServer();
    const { interfaceId, peerIds } = await seedPeers(t, 1000);
    const page = await browser.newPage();
    const errors = watchConsole(page);
    await page.addInitScript(countFrames);
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    await page.goto(`${t.admin}/peers`);
    await prepare(page);
    assertEquals(await page.locator("tbody tr").count(), 1000);
    const framesBefore = await page.evaluate(() => (globalThis as unknown as Probe).__frames);
    await page.evaluate(() => {
      const g = globalThis as unknown as Probe;
      const caption = document.querySelector("[data-peer-caption]")!;
      new MutationObserver(() => (g.__applied = performance.now()))
        .observe(caption, { subtree: true, childList: true, characterData: true });
    });
    // The click goes out as raw input, with no round trip to find the button first.
    const box = (await page.locator("#probe").boundingBox())!;

    // The final state the page must end in: one peer renamed, one deleted (each emits its own
    // event), then every peer reported changed at once, as a bulk change would.
    const { tunnels, events } = t.services;
    await tunnels.peers.update(peerIds[500], { name: "renamed-0500" }, "test");
    await tunnels.peers.delete(peerIds[999], "test");
    for (let k = 0; k < 1000; k++) {
      events.emit("PeerChanged", {
        id: peerIds[k],
        action: "updated",
        interface_id: interfaceId,
        name: `peer-${String(k).padStart(4, "0")}`,
      });
    }
    const sent = performance.now();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const clicked = performance.now() - sent;
    await page.locator("[data-peer-caption]", { hasText: /^999 peers/ }).waitFor({
      timeout: HANG_MS,
    });
    await page.getByRole("link", { name: "renamed-0500" }).waitFor({ timeout: HANG_MS });
    assertEquals(await page.locator("tbody tr").count(), 999);
    assertEquals(await page.locator(`tr[data-peer-id="${peerIds[999]}"]`).count(), 0);
    const { delays, noReload, atClick, frames, applied } = await probe(page);
    assert(noReload, "the page was not reloaded");
    assertEquals(delays.length, 1, "the click was handled once");
    console.log(
      `click right after 1,000 events: handled ${delays[0].toFixed(0)} ms after it was sent ` +
        `(the click call returned after ${clicked.toFixed(0)} ms); ${
          atClick[0] - framesBefore
        } of the ${frames - framesBefore} event frames had arrived then, and the rows were ` +
        `reconciled ${(applied - atClick[1]).toFixed(0)} ms after it`,
    );
    assert(delays[0] < 200, `the click waited ${delays[0].toFixed(0)} ms`);
    assertEquals(errors, []);
  },
);
