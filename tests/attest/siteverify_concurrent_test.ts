/**
 * Two siteverify requests for one token racing on different threads of the
 * attestation listener (PALISADE_ATTEST_WORKERS=2, real clock): exactly one
 * succeeds, because the token is marked used by a conditional UPDATE.
 */
import { assertEquals } from "../assert.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { addSite, buildToken, postToken, siteClient } from "../helpers/site_tokens.ts";
import { turnstileVerify } from "../helpers/turnstile_verifier.ts";

const SHOP = "https://shop.example";

Deno.test("concurrent siteverify of one token on two threads: exactly one success", async () => {
  await using t = await startTestServer({ env: { PALISADE_ATTEST_WORKERS: "2" } });
  const site = await addSite(t, { name: "shop", origins: [SHOP], min_chain: 1 });
  const core = await loadCore();
  const url = `${t.attest}/siteverify`;
  for (let round = 0; round < 5; round++) {
    const c = await siteClient(core, t.attest, site, SHOP, () => Date.now());
    // The first heartbeat may come at once: the spec bounds only the rate.
    if (!await c.heartbeat()) throw new Error("heartbeat refused");
    const token = buildToken(c, site, { hn: "shop.example", iat: Date.now() });
    assertEquals((await postToken(t.attest, token, SHOP)).status, 200);
    // Concurrent HTTP/1.1 requests go over separate connections, which the kernel spreads over the threads.
    const answers = await Promise.all(
      Array.from(
        { length: 4 },
        (_, i) =>
          turnstileVerify(
            url,
            { secret: site.secret, response: token },
            i % 2 ? "json" : "urlencoded",
          ),
      ),
    );
    assertEquals(answers.filter((a) => a.success).length, 1, `round ${round}`);
    for (const a of answers.filter((a) => !a.success)) {
      assertEquals(a["error-codes"], ["timeout-or-duplicate"]);
    }
  }
});
