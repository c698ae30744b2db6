/**
 * A site's page in Chromium (a second loopback server: another origin)
 * embeds the script with data-site-key; the mouse moves until the session
 * has the site's min_chain accepted heartbeats; token() refuses before that;
 * the form helper puts a token in `palisade-response` on submit, and the
 * page's backend verifies it at /siteverify with the site's secret, using a
 * verifier written from Cloudflare's docs: success once,
 * timeout-or-duplicate the second time, invalid-input-secret with a wrong
 * secret; a token verified after the site's token_ttl_s (10 s) by the
 * server's clock fails with timeout-or-duplicate. A visitor who submits
 * before min_chain sends the form without a token (missing-input-response).
 * Heartbeats are shortened to 1.5–2.5 s by configuration. The server's clock
 * is the wall clock plus an offset the test moves forward (the listener runs
 * on the main thread in tests, PALISADE_ATTEST_WORKERS=0), so the page's
 * heartbeats stay within the 30 s drift allowance while a token expires.
 * Below-min_chain and never-issued tokens from the reference client,
 * idempotency and races are in tests/attest/site_tokens_test.ts and
 * siteverify_concurrent_test.ts.
 */
import type { Page } from "playwright-core";
import { ensureWasm } from "../../scripts/build_wasm.ts";
import { buildAttestClient } from "../../scripts/build_attest_client.ts";
import type { PalisadeAttest } from "../../attest_client/palisade_attest.ts";
import { assert, assertEquals } from "../assert.ts";
import { browserTest, watchConsole } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { addSite, type TestSite } from "../helpers/site_tokens.ts";
import { type TurnstileResult, turnstileVerify } from "../helpers/turnstile_verifier.ts";

const HB_ENV = { PALISADE_ATTEST_HB_MIN_MS: "1500", PALISADE_ATTEST_HB_MAX_MS: "2500" };
const MIN_CHAIN = 2;
/** The shortest lifetime a site may set; well under the 30 s heartbeat drift allowance. */
const TOKEN_TTL_S = 10;

type Win = { PalisadeAttest: PalisadeAttest };

function shopPage(attest: string, siteKey: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${attest}/palisade-attest.js" data-site-key="${siteKey}" async></script>
</head><body>
<div id="pad" style="width:640px;height:360px;background:#eee"></div>
<form method="POST" action="/submit">
  <div class="palisade-attest" data-action="signup" data-cdata="c-42"></div>
  <input name="email" value="visitor@shop.example">
  <button id="send" type="submit" name="go" value="yes">Sign up</button>
</form></body></html>`;
}

/** Curved strokes over `#pad` with pauses, until `done()`. */
async function moveMouse(page: Page, done: () => boolean): Promise<void> {
  const box = (await page.locator("#pad").boundingBox())!;
  const clamp = (v: number, lo: number, span: number) =>
    Math.min(lo + span - 5, Math.max(lo + 5, v));
  let x = box.x + box.width / 2;
  let y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  for (let i = 0; i < 400 && !done(); i++) {
    const angle = Math.random() * Math.PI * 2;
    const length = 40 + Math.random() * 110;
    const tx = clamp(x + Math.cos(angle) * length, box.x, box.width);
    const ty = clamp(y + Math.sin(angle) * length, box.y, box.height);
    const cx = (x + tx) / 2 + (Math.random() - 0.5) * length * 0.6;
    const cy = (y + ty) / 2 + (Math.random() - 0.5) * length * 0.6;
    for (const f of [0.25, 0.5, 0.75, 1]) {
      const px = (1 - f) ** 2 * x + 2 * (1 - f) * f * cx + f * f * tx;
      const py = (1 - f) ** 2 * y + 2 * (1 - f) * f * cy + f * f * ty;
      await page.mouse.move(px, py, { steps: 3 + Math.floor(Math.random() * 4) });
    }
    x = tx;
    y = ty;
    await page.waitForTimeout(120 + Math.random() * 230);
  }
}

const NAME =
  "a site's page in Chromium gets a token after min_chain heartbeats, its form carries it, and its backend verifies it once at /siteverify";

browserTest(NAME, async (browser) => {
  await ensureWasm();
  await buildAttestClient();
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  await using t = await startTestServer({ env: HB_ENV, clock });
  let site: TestSite | null = null;
  const received: string[] = [];
  // The site's own server: its page, and its form handler calling siteverify with the secret.
  await using shop = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const html = { "Content-Type": "text/html; charset=utf-8" };
    if (req.method === "POST") {
      const form = await req.formData();
      const response = String(form.get("palisade-response") ?? "");
      received.push(response);
      const result = await turnstileVerify(`${t.attest}/siteverify`, {
        secret: site!.secret,
        response,
        remoteip: "127.0.0.1",
      });
      const body = JSON.stringify({ result, email: form.get("email"), go: form.get("go") });
      return new Response(`<!DOCTYPE html><pre id="result">${body}</pre>`, { headers: html });
    }
    return new Response(shopPage(t.attest, site!.site_key), { headers: html });
  });
  const origin = `http://127.0.0.1:${shop.addr.port}`;
  site = await addSite(t, {
    name: "shop",
    origins: [origin],
    min_chain: MIN_CHAIN,
    token_ttl_s: TOKEN_TTL_S,
  });

  const page = await browser.newPage();
  const errors = watchConsole(page);
  await page.goto(`${origin}/`);
  await page.waitForFunction(
    () => (globalThis as unknown as Partial<Win>).PalisadeAttest?.status.state === "active",
    null,
    { timeout: 10_000 },
  );
  // Before min_chain, token() refuses with the server's reason.
  const early = await page.evaluate(() =>
    (globalThis as unknown as Win).PalisadeAttest.token().then(() => "issued", (e) => String(e))
  );
  assert(early.includes("Chain too short"), early);

  let done = false;
  const mover = moveMouse(page, () => done);
  try {
    await page.waitForFunction(
      (n) => (globalThis as unknown as Win).PalisadeAttest.status.chainLength >= n,
      MIN_CHAIN,
      { timeout: 30_000 },
    );
  } finally {
    done = true;
    await mover;
  }
  // The explicit API: a token for the page's own script to send.
  const explicit = await page.evaluate(() =>
    (globalThis as unknown as Win).PalisadeAttest.token({ action: "api" })
  );
  const verifyUrl = `${t.attest}/siteverify`;
  const viaApi = await turnstileVerify(
    verifyUrl,
    { secret: site.secret, response: explicit },
    "json",
  );
  assertEquals([viaApi.success, viaApi.action, viaApi.hostname], [true, "api", "127.0.0.1"]);

  // Expiry: a fresh token, then the server's clock moves past token_ttl_s before it is verified.
  const late = await page.evaluate(() =>
    (globalThis as unknown as Win).PalisadeAttest.token({ action: "late" })
  );
  offset += (TOKEN_TTL_S + 1) * 1000;
  const expired = await turnstileVerify(verifyUrl, { secret: site.secret, response: late });
  assertEquals([expired.success, expired["error-codes"]], [false, ["timeout-or-duplicate"]]);

  // The form helper: submit, and the site's backend verifies what the form carried.
  await Promise.all([page.waitForURL(`${origin}/submit`), page.click("#send")]);
  const shown = JSON.parse(await page.locator("#result").innerText()) as {
    result: TurnstileResult;
    email: string;
    go: string;
  };
  assertEquals(shown.result.success, true, JSON.stringify(shown.result));
  assertEquals(shown.result["error-codes"], []);
  assertEquals([shown.result.hostname, shown.result.action, shown.result.cdata], [
    "127.0.0.1",
    "signup",
    "c-42",
  ]);
  assert((shown.result.chain_length as number) >= MIN_CHAIN);
  // The form's own fields and the button pressed went along.
  assertEquals([shown.email, shown.go], ["visitor@shop.example", "yes"]);
  assertEquals(received.length, 1);
  const token = received[0];
  assert(token.startsWith("v1.") && token !== explicit);

  const again = await turnstileVerify(verifyUrl, { secret: site.secret, response: token });
  assertEquals([again.success, again["error-codes"]], [false, ["timeout-or-duplicate"]]);
  const wrong = await turnstileVerify(verifyUrl, {
    secret: `sk_${"x".repeat(43)}`,
    response: token,
  });
  assertEquals([wrong.success, wrong["error-codes"]], [false, ["invalid-input-secret"]]);
  // The one console line is Chromium's note on the early token request's 409.
  assertEquals(errors, [
    "Failed to load resource: the server responded with a status of 409 (Conflict)",
  ]);

  // A visitor who submits before min_chain is not stuck: the form goes without a token.
  const hasty = await browser.newPage();
  await hasty.goto(`${origin}/`);
  await hasty.waitForFunction(
    () => (globalThis as unknown as Partial<Win>).PalisadeAttest?.status.state === "active",
    null,
    { timeout: 10_000 },
  );
  await Promise.all([hasty.waitForURL(`${origin}/submit`), hasty.click("#send")]);
  const early2 = JSON.parse(await hasty.locator("#result").innerText()) as {
    result: TurnstileResult;
  };
  assertEquals([early2.result.success, early2.result["error-codes"]], [false, [
    "missing-input-response",
  ]]);
  assertEquals(received[1], "");
});
