/**
 * The embeddable attestation client in a real Chromium against a real
 * attestation listener: the demo page at `/` with its one script tag, pointer
 * movement through the browser's input API, heartbeat intervals shortened by
 * configuration (1.5–2.5 s: at most 5 heartbeats fit in the server's 10 s rate
 * window), and an embedding page on another origin with the CSP the docs
 * prescribe.
 */
import type { Page } from "playwright-core";
import { ensureWasm, WASM_SIZE_LIMIT } from "../../scripts/build_wasm.ts";
import { buildAttestClient } from "../../scripts/build_attest_client.ts";
import type { AttestStatus, PalisadeAttest } from "../../attest_client/palisade_attest.ts";
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { browserTest, watchConsole } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

const HB_ENV = { PALISADE_ATTEST_HB_MIN_MS: "1500", PALISADE_ATTEST_HB_MAX_MS: "2500" };
/** Required by the issue: a heartbeat signature in Chromium takes under this long. */
const SIGN_BUDGET_MS = 2;

type Win = { PalisadeAttest: PalisadeAttest };

async function stats(t: TestServer): Promise<Record<string, number>> {
  return await (await fetch(`${t.attest}/stats`)).json();
}

async function metric(t: TestServer, line: string): Promise<number> {
  const text = await (await fetch(`${t.attest}/metrics`)).text();
  const hit = text.split("\n").find((l) => l.startsWith(line + " "));
  return hit ? Number(hit.slice(line.length + 1)) : NaN;
}

/** The page's client status (the full session id, which the page shows abbreviated). */
function status(page: Page): Promise<AttestStatus> {
  return page.evaluate(() => (globalThis as unknown as Win).PalisadeAttest.status);
}

/**
 * Moves the mouse over `selector` like a hand: curved strokes of 40–150 px,
 * each dispatched as several small steps, separated by pauses of 120–350 ms,
 * until `done()` says stop.
 */
async function moveLikeAHuman(page: Page, selector: string, done: () => boolean): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  const clampX = (v: number) => Math.min(box.x + box.width - 5, Math.max(box.x + 5, v));
  const clampY = (v: number) => Math.min(box.y + box.height - 5, Math.max(box.y + 5, v));
  let x = box.x + box.width / 2;
  let y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  while (!done()) {
    const angle = Math.random() * Math.PI * 2;
    const length = 40 + Math.random() * 110;
    const tx = clampX(x + Math.cos(angle) * length);
    const ty = clampY(y + Math.sin(angle) * length);
    // A quadratic curve through a control point off the straight line.
    const cx = (x + tx) / 2 + (Math.random() - 0.5) * length * 0.6;
    const cy = (y + ty) / 2 + (Math.random() - 0.5) * length * 0.6;
    for (const f of [0.25, 0.5, 0.75, 1]) {
      const px = (1 - f) ** 2 * x + 2 * (1 - f) * f * cx + f * f * tx;
      const py = (1 - f) ** 2 * y + 2 * (1 - f) * f * cy + f * f * ty;
      await page.mouse.move(clampX(px), clampY(py), { steps: 3 + Math.floor(Math.random() * 4) });
    }
    x = tx;
    y = ty;
    await page.waitForTimeout(120 + Math.random() * 230);
  }
}

/** Stops the client between two heartbeats (none in flight) and returns its last status. */
function stopBetweenHeartbeats(page: Page): Promise<AttestStatus> {
  return page.evaluate(() =>
    new Promise<AttestStatus>((resolve) => {
      const api = (globalThis as unknown as Win).PalisadeAttest;
      // nextHeartbeatAt is set only while a timer waits and no request is in flight.
      const off = api.onStatus((s) => {
        if (s.state !== "active" || s.nextHeartbeatAt === null) return;
        queueMicrotask(() => {
          off();
          api.stop();
          resolve(s);
        });
      });
    })
  );
}

const ACCEPTED = "the demo page in Chromium reaches 3 accepted heartbeats while the mouse moves";

browserTest(ACCEPTED, async (browser) => {
  await ensureWasm();
  await buildAttestClient();
  await using t = await startTestServer({ env: HB_ENV });
  const page = await browser.newPage();
  const errors = watchConsole(page);
  const started = performance.now();
  await page.goto(`${t.attest}/`);
  await page.locator("#state").filter({ hasText: "active" }).waitFor({ timeout: 10_000 });
  const first = await status(page);
  assertEquals(first.chainLength, 0);

  let done = false;
  const mover = moveLikeAHuman(page, "#pad", () => done);
  // Watch the server's view grow while the page runs.
  const seen: number[] = [];
  const poller = (async () => {
    // One last read after `done`: the page shows a heartbeat only after the server stored it.
    while (true) {
      const last = done;
      const n = (await stats(t)).max_chain_length;
      if (seen[seen.length - 1] !== n) seen.push(n);
      if (last) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    await page.waitForFunction(
      () => Number(document.getElementById("chain-length")?.textContent) >= 3,
      null,
      { timeout: 30_000 },
    );
  } finally {
    done = true;
    await mover;
    await poller;
  }
  const last = await stopBetweenHeartbeats(page);
  const elapsed = (performance.now() - started) / 1000;
  console.log(
    `3 accepted heartbeats after ${elapsed.toFixed(1)} s; server saw ${seen.join(" → ")}`,
  );

  // The server's chain grew heartbeat by heartbeat to what the page shows.
  assert(seen.includes(1) && seen.includes(2) && seen.includes(3), `stats went ${seen}`);
  const row = t.store.get<{ chain_length: number }>(
    "SELECT chain_length FROM attest_sessions WHERE session_id = ?",
    last.sessionId,
  );
  assertEquals(row?.chain_length, last.chainLength);
  assert((await stats(t)).max_chain_length >= 3);
  assertEquals(await page.locator("#chain-length").innerText(), String(last.chainLength));
  assertEquals(await page.locator("#last-result").innerText(), "accepted");
  assertEquals(last.lastResult, "accepted");
  assertEquals(await page.locator("#state").innerText(), "stopped");
  assert(await metric(t, "attest_heartbeats_accepted_total") >= 3);

  // Signing speed on a real heartbeat payload, inside the page.
  const m = await page.evaluate(() =>
    (globalThis as unknown as Win).PalisadeAttest.measureSigning(200)
  );
  console.log(
    `sign_message in Chromium: ${m.msPerSign.toFixed(3)} ms per signature ` +
      `(${m.iterations} signatures of a ${m.payloadBytes}-byte heartbeat payload)`,
  );
  assert(m.payloadBytes > 300, "measured on a real payload");
  assert(m.msPerSign < SIGN_BUDGET_MS, `${m.msPerSign} ms per signature`);

  // The module the page ran is the one served, within the size budget.
  const wasm = await fetch(`${t.attest}/palisade-attest.wasm`);
  const size = (await wasm.arrayBuffer()).byteLength;
  console.log(`palisade-attest.wasm: ${size} bytes (limit ${WASM_SIZE_LIMIT})`);
  assertEquals(wasm.headers.get("content-type"), "application/wasm");
  assert(size > 0 && size <= WASM_SIZE_LIMIT, `${size} bytes`);
  assertEquals(errors, []);
});

const REJECTED =
  "the demo page in Chromium without pointer movement is rejected and restarts with a new session";

browserTest(REJECTED, async (browser) => {
  await ensureWasm();
  await buildAttestClient();
  await using t = await startTestServer({ env: HB_ENV });
  const page = await browser.newPage();
  const errors = watchConsole(page);
  await page.goto(`${t.attest}/`);
  await page.locator("#state").filter({ hasText: "active" }).waitFor({ timeout: 10_000 });
  const first = await status(page);
  assert(first.sessionId);
  // No mouse: the first heartbeat fails the pointer check, the client starts over.
  await page.waitForFunction(
    (old) => {
      const s = (globalThis as unknown as Win).PalisadeAttest.status;
      return s.restarts >= 1 && s.state === "active" && s.sessionId !== old;
    },
    first.sessionId,
    { timeout: 15_000 },
  );
  const now = await status(page);
  console.log(
    `session ${first.sessionId.slice(0, 8)}… rejected, restarted as ${now.sessionId!.slice(0, 8)}…`,
  );
  assertNotEquals(now.sessionId, first.sessionId);
  assertEquals(now.lastResult, "rejected");
  assertEquals(now.chainLength, 0);
  assertEquals(await page.locator("#last-result").innerText(), "rejected");
  assertEquals(await page.locator("#restarts").innerText(), String(now.restarts));
  assertEquals(await page.locator("#session-id").getAttribute("title"), now.sessionId);
  assertEquals((await stats(t)).max_chain_length, 0);
  assertEquals((await stats(t)).sessions, 2);
  assert(await metric(t, 'attest_heartbeats_rejected_total{reason="mouse_events"}') >= 1);
  await page.evaluate(() => (globalThis as unknown as Win).PalisadeAttest.stop());
  assertEquals(errors, []);
});

const EMBED =
  "a page on another origin embeds the script with one tag under the documented CSP; without 'wasm-unsafe-eval' it reports an error";

/** An embedding page served by Playwright on its own origin, with a CSP for `attest`. */
function embedderPage(attest: string, wasmEval: boolean): string {
  const csp = `default-src 'none'; script-src ${attest}${wasmEval ? " 'wasm-unsafe-eval'" : ""}; ` +
    `connect-src ${attest}`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Embedder</title>
<script src="${attest}/palisade-attest.js" async></script>
</head><body><p>Someone else's page.</p></body></html>`;
}

browserTest(EMBED, async (browser) => {
  await ensureWasm();
  await buildAttestClient();
  // The script and module are served even when the frontend folder is someone else's site.
  const frontend = await Deno.makeTempDir({ prefix: "palisade-frontend-" });
  await Deno.writeTextFile(`${frontend}/index.html`, "<!DOCTYPE html><title>Other site</title>");
  await using t = await startTestServer({
    env: { ...HB_ENV, PALISADE_ATTEST_FRONTEND: frontend },
  });
  // Another origin: a second loopback server (a page answered by Playwright itself would count
  // as public, and Chromium keeps public pages from loopback addresses).
  await using embedder = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new Response(embedderPage(t.attest, new URL(req.url).searchParams.has("wasm-eval")), {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      }),
  );
  const origin = `http://127.0.0.1:${embedder.addr.port}`;
  try {
    for (const wasmEval of [true, false]) {
      const page = await browser.newPage();
      const errors = watchConsole(page);
      await page.goto(`${origin}/${wasmEval ? "?wasm-eval" : ""}`);
      await page.waitForFunction(
        () => {
          const state = (globalThis as unknown as Partial<Win>).PalisadeAttest?.status.state;
          return state === "active" || state === "error";
        },
        null,
        { timeout: 10_000 },
      );
      const s = await status(page);
      const endpoint = await page.evaluate(() =>
        (globalThis as unknown as Win).PalisadeAttest.endpoint
      );
      assertEquals(endpoint, t.attest, "the endpoint comes from the script's own URL");
      if (wasmEval) {
        assertEquals(s.state, "active", s.error ?? "");
        assertEquals(s.sessionId?.length, 64);
        assertEquals(errors, []);
      } else {
        assertEquals(s.state, "error");
        assert(s.error?.includes("Cannot load the attestation module"), s.error ?? "");
        assert(s.error?.includes("Content Security Policy"), s.error ?? "");
        // The client says so on the console too, for whoever embeds it.
        assert(errors.some((e) => e.includes("Cannot load the attestation module")), `${errors}`);
        console.log(`without 'wasm-unsafe-eval': ${s.error}`);
      }
      await page.close();
    }
  } finally {
    await Deno.remove(frontend, { recursive: true });
  }
});
