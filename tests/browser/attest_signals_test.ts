/**
 * Automation signals in a real Chromium (docs/attestation_sites.md,
 * "Signals"): a site's page embeds the script with data-site-key; Playwright
 * drives the pointer in straight lines at a constant speed; after accepted
 * heartbeats the server's signals of that session say path_regular, and so
 * does the siteverify answer for the token that session gets. A second
 * session, from the site's origin too, sends the first one's recorded samples
 * again (through the reference client) and is flagged as a replay, in its
 * token's siteverify answer as well.
 */
import type { Page } from "playwright-core";
import { ensureWasm } from "../../scripts/build_wasm.ts";
import { buildAttestClient } from "../../scripts/build_attest_client.ts";
import type { PalisadeAttest } from "../../attest_client/palisade_attest.ts";
import type { EntropyEvent } from "../../lib/attest/canonical.ts";
import { AttestClient } from "../../lib/attest/client.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { assert, assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { browserTest, watchConsole } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { buildToken, postToken, type TestSite } from "../helpers/site_tokens.ts";
import { turnstileVerify } from "../helpers/turnstile_verifier.ts";

const HB_ENV = { PALISADE_ATTEST_HB_MIN_MS: "1500", PALISADE_ATTEST_HB_MAX_MS: "2500" };

type Win = { PalisadeAttest: PalisadeAttest };

function sitePage(attest: string, siteKey: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<style>html, body { margin: 0; width: 100%; height: 100%; }</style>
<script src="${attest}/palisade-attest.js" data-site-key="${siteKey}" async></script>
</head><body><p>A shop.</p></body></html>`;
}

/**
 * What automation does: straight strokes between fixed corners, each as
 * `mouse.move(x, y, {steps})` (evenly spaced points, dispatched back to back),
 * with a rest between strokes, until `done()`.
 */
async function moveLikeAScript(page: Page, done: () => boolean): Promise<void> {
  const corners = [[100, 100], [500, 140], [460, 420], [140, 380]];
  await page.mouse.move(100, 100);
  for (let i = 1; !done(); i++) {
    const [x, y] = corners[i % corners.length];
    await page.mouse.move(x, y, { steps: 25 });
    await page.waitForTimeout(150);
  }
}

const FLAGGED =
  "a site's page driven by mouse.move in straight lines at a constant speed gets a token whose signals say path_regular, and a second session sending its samples again one whose signals say replay";

browserTest(FLAGGED, async (browser) => {
  await ensureWasm();
  await buildAttestClient();
  await using t = await startTestServer({ env: HB_ENV });
  await using shop = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(sitePage(t.attest, key), { headers: { "Content-Type": "text/html" } }),
  );
  const origin = `http://127.0.0.1:${shop.addr.port}`;
  const api = apiClient(t.admin, { cookie: await t.login() });
  const created = await api.post("/attest/sites", { name: "shop", origins: [origin] });
  assertEquals(created.status, 201);
  const site = created.body as TestSite;
  const key = site.site_key;

  const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  const errors = watchConsole(page);
  // The samples of every heartbeat the server accepted (an answer with next_salt).
  const accepted: EntropyEvent[][] = [];
  page.on("response", async (res) => {
    if (!res.url().endsWith("/hb")) return;
    const body = await res.json().catch(() => null);
    if (body?.next_salt) accepted.push(JSON.parse(res.request().postData()!).entropy_data.events);
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(
    () => (globalThis as unknown as Partial<Win>).PalisadeAttest?.status.state === "active",
    null,
    { timeout: 10_000 },
  );
  let done = false;
  const mover = moveLikeAScript(page, () => done);
  try {
    await page.waitForFunction(
      () => (globalThis as unknown as Win).PalisadeAttest.status.chainLength >= 3,
      null,
      { timeout: 30_000 },
    );
  } finally {
    done = true;
    await mover;
  }
  const { status, token } = await page.evaluate(async () => {
    const api = (globalThis as unknown as Win).PalisadeAttest;
    // Read before stop(), which forgets the session.
    const s = api.status;
    const token = await api.token();
    api.stop();
    return { status: s, token };
  });
  const sessionId = status.sessionId!;
  // The init carried the site key: the session belongs to the site.
  assertEquals(await t.services.attestSites.siteOfSession(sessionId), site.id);
  const s = t.services.attestSqlite!.signalsOf(sessionId);
  assert(s, "signals of the site's session");
  console.log(`signals of the scripted session: ${JSON.stringify(s.path)}`);
  assert(s.heartbeats >= 3, `${s.heartbeats} heartbeats measured`);
  assert(s.flags.includes("path_regular"), JSON.stringify(s));
  assertEquals(s.replay.seen_elsewhere, 0);
  assertEquals(errors, []);
  // The site's server sees it too: the token verifies, and its signals carry the flag.
  const verdict = await turnstileVerify(`${t.attest}/siteverify`, {
    secret: site.secret,
    response: token,
  });
  assertEquals(verdict.success, true, JSON.stringify(verdict));
  assert(
    (verdict.signals as { flags: string[] }).flags.includes("path_regular"),
    JSON.stringify(verdict),
  );

  // The recorded samples sent again by another session from the site's origin, later in time.
  assert(accepted.length >= 3, `${accepted.length} accepted heartbeats recorded`);
  const replayer = new AttestClient(await loadCore(), {
    async post(path, body) {
      const q = path === "/init" ? `?site_key=${key}` : "";
      const res = await fetch(`${t.attest}${path}${q}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: origin },
        body: JSON.stringify(body),
      });
      return await res.json();
    },
  });
  await replayer.init();
  const replayed = accepted.slice(0, 3);
  for (const events of replayed) {
    const shift = 60_000;
    assertEquals(
      await replayer.heartbeat({ events: events.map((e) => ({ ...e, t: e.t + shift })) }),
      true,
    );
  }
  const r = t.services.attestSqlite!.signalsOf(replayer.session!.session_id)!;
  console.log(`signals of the replaying session: ${JSON.stringify(r.replay)}`);
  assert(r.flags.includes("replay"), JSON.stringify(r));
  assertEquals(r.replay.seen_elsewhere, replayed.length);
  const copy = buildToken(replayer, site, { hn: "127.0.0.1", iat: Date.now() });
  const issued = await postToken(t.attest, copy, origin);
  assertEquals(issued.status, 200, JSON.stringify(issued.body));
  const flagged = await turnstileVerify(`${t.attest}/siteverify`, {
    secret: site.secret,
    response: copy,
  });
  assertEquals(flagged.success, true, JSON.stringify(flagged));
  assert(
    (flagged.signals as { flags: string[] }).flags.includes("replay"),
    JSON.stringify(flagged),
  );
  // The original was not a copy of anything.
  assertEquals(t.services.attestSqlite!.signalsOf(sessionId)!.replay.seen_elsewhere, 0);
});
