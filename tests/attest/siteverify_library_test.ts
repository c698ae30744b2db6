/**
 * An off-the-shelf Turnstile verifier from npm, `cf-turnstile` (its
 * `apiUrl` option sets the siteverify URL; it posts form-encoded), pointed
 * at the attestation listener: a site whose server uses it switches by
 * changing that one URL (docs/attestation_sites.md).
 */
import cfTurnstile from "cf-turnstile";
import { assert, assertEquals } from "../assert.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import { addSite, buildToken, postToken, siteClient } from "../helpers/site_tokens.ts";

const SHOP = "https://shop.example";

type Options = { apiUrl?: string; hostname?: string; action?: string };
type Result = { success: boolean; errors: string[]; hostname?: string; timestamp?: Date };
type Turnstile = (secret: string, o?: Options) => (token: string, o?: Options) => Promise<Result>;
// A CommonJS package whose module.exports is the function; its typings call it a default export.
const turnstile = cfTurnstile as unknown as Turnstile;

Deno.test("cf-turnstile from npm, given the listener's /siteverify as apiUrl, verifies a token once", async () => {
  await using rig = await startAttestRig();
  const site = await addSite(rig.t, { name: "shop", origins: [SHOP], min_chain: 2 });
  const c = await siteClient(await loadCore(), rig.t.attest, site, SHOP, () => rig.clock.now());
  for (let i = 0; i < 2; i++) {
    rig.clock.advance(2100);
    assert(await c.heartbeat());
  }
  const token = buildToken(c, site, { hn: "shop.example", iat: rig.clock.now(), action: "login" });
  assertEquals((await postToken(rig.t.attest, token, SHOP)).status, 200);
  const verify = turnstile(site.secret, { apiUrl: `${rig.t.attest}/siteverify` });
  const first = await verify(token, { hostname: "shop.example", action: "login" });
  assertEquals([first.success, first.errors, first.hostname], [true, [], "shop.example"]);
  assertEquals(first.timestamp?.getTime(), rig.clock.now());
  const second = await verify(token);
  assertEquals([second.success, second.errors], [false, ["timeout-or-duplicate"]]);
  const wrong = await turnstile("sk_" + "w".repeat(43), { apiUrl: `${rig.t.attest}/siteverify` })(
    token,
  );
  assertEquals(wrong.errors, ["invalid-input-secret"]);
});
