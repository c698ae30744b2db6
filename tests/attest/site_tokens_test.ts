/**
 * Tokens and siteverify (docs/attestation_sites.md, "Tokens and siteverify")
 * over a real listener with a manual clock: /token issues only for a
 * session with the site's min_chain, siteverify answers as Cloudflare's
 * documents it (checked by a verifier written from those docs alone,
 * tests/helpers/turnstile_verifier.ts), once per token, with the first
 * answer again for a repeated idempotency_key, and expiry by the server's
 * clock.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import {
  addSite,
  buildToken,
  postToken,
  siteClient,
  type TestSite,
} from "../helpers/site_tokens.ts";
import { turnstileVerify } from "../helpers/turnstile_verifier.ts";

const SHOP = "https://shop.example";
const core = await loadCore();

async function rigWithSite(site: { min_chain?: number; token_ttl_s?: number } = {}) {
  const rig = await startAttestRig();
  const s = await addSite(rig.t, { name: "shop", origins: [SHOP], min_chain: 3, ...site });
  return { rig, site: s };
}

type Rig = Awaited<ReturnType<typeof startAttestRig>>;

/** A session of the site with `beats` accepted heartbeats. */
async function session(rig: Rig, site: TestSite, beats: number) {
  const c = await siteClient(core, rig.t.attest, site, SHOP, () => rig.clock.now());
  for (let i = 0; i < beats; i++) {
    rig.clock.advance(2100);
    assert(await c.heartbeat());
  }
  return c;
}

function tokenFor(rig: Rig, site: TestSite, c: Awaited<ReturnType<typeof session>>, extra = {}) {
  return buildToken(c, site, { hn: "shop.example", iat: rig.clock.now(), ...extra });
}

async function issued(rig: Rig, site: TestSite, beats = 3, extra = {}) {
  const c = await session(rig, site, beats);
  const token = tokenFor(rig, site, c, extra);
  const r = await postToken(rig.t.attest, token, SHOP);
  assertEquals(r.status, 200, JSON.stringify(r.body));
  return token;
}

Deno.test("siteverify accepts an issued token once (form-encoded, multipart and JSON as Cloudflare documents them) and answers Turnstile's fields", async () => {
  const { rig, site } = await rigWithSite();
  await using _ = rig;
  const url = `${rig.t.attest}/siteverify`;
  for (const encoding of ["urlencoded", "formdata", "json"] as const) {
    const before = rig.clock.now();
    const token = await issued(rig, site, 3, { action: "login", cdata: "order-17" });
    const ok = await turnstileVerify(url, { secret: site.secret, response: token }, encoding);
    assertEquals(ok.success, true, encoding);
    assertEquals(ok["error-codes"], []);
    assertEquals(ok.hostname, "shop.example");
    assertEquals([ok.action, ok.cdata], ["login", "order-17"]);
    // Issued after the session's three heartbeats, 2.1 s apart.
    assertEquals(Date.parse(ok.challenge_ts!), before + 6300);
    assertEquals(ok.chain_length, 3);
    // The session was created 3 × 2.1 s before the token.
    assertEquals(ok.session_age_ms, 6300);
    assertEquals(
      (ok.signals as { client: { client_reported: boolean } }).client.client_reported,
      true,
    );
    const again = await turnstileVerify(url, { secret: site.secret, response: token }, encoding);
    assertEquals([again.success, again["error-codes"]], [false, ["timeout-or-duplicate"]]);
  }
});

Deno.test("siteverify checks in Cloudflare's order: missing or wrong secret, missing or unknown response", async () => {
  const { rig, site } = await rigWithSite();
  await using _ = rig;
  const url = `${rig.t.attest}/siteverify`;
  const token = await issued(rig, site);
  const codes = async (req: { secret: string; response: string }) =>
    (await turnstileVerify(url, req))["error-codes"];
  assertEquals(await codes({ secret: "", response: token }), ["missing-input-secret"]);
  assertEquals(await codes({ secret: "sk_" + "A".repeat(43), response: token }), [
    "invalid-input-secret",
  ]);
  assertEquals(await codes({ secret: site.secret, response: "" }), ["missing-input-response"]);
  assertEquals(await codes({ secret: site.secret, response: "v1.garbage" }), [
    "invalid-input-response",
  ]);
  // Another site's secret does not verify this site's token.
  const other = await addSite(rig.t, { name: "blog", origins: ["https://blog.example"] });
  assertEquals(await codes({ secret: other.secret, response: token }), ["invalid-input-response"]);
  // None of these consumed it.
  assertEquals(
    (await turnstileVerify(url, { secret: site.secret, response: token })).success,
    true,
  );
});

Deno.test("a session below min_chain gets no token (409), and a signed token never issued fails siteverify", async () => {
  const { rig, site } = await rigWithSite({ min_chain: 3 });
  await using _ = rig;
  const c = await session(rig, site, 2);
  const token = tokenFor(rig, site, c);
  const refused = await postToken(rig.t.attest, token, SHOP);
  assertEquals(refused.status, 409);
  assertEquals(refused.body.status, 409);
  assert(String(refused.body.error).includes("needs 3"), String(refused.body.error));
  const r = await turnstileVerify(`${rig.t.attest}/siteverify`, {
    secret: site.secret,
    response: token,
  });
  assertEquals([r.success, r["error-codes"]], [false, ["invalid-input-response"]]);
  // A client claiming more heartbeats than the server counted is refused too.
  rig.clock.advance(2100);
  assert(await c.heartbeat());
  const inflated = await postToken(rig.t.attest, tokenFor(rig, site, c, { chain: 9 }), SHOP);
  assertEquals(inflated.status, 409);
  assertEquals((await postToken(rig.t.attest, tokenFor(rig, site, c), SHOP)).status, 200);
});

Deno.test("POST /token refuses (403) a wrong Origin, hostname, signature, clock or site, and (409) a token twice", async () => {
  const { rig, site } = await rigWithSite({ min_chain: 1 });
  await using _ = rig;
  const c = await session(rig, site, 1);
  const t = (extra = {}) => tokenFor(rig, site, c, extra);
  const post = (token: string, origin = SHOP) => postToken(rig.t.attest, token, origin);
  assertEquals((await post(t(), "https://evil.example")).status, 403);
  assertEquals((await post(t({ hn: "evil.example" }))).status, 403);
  assertEquals((await post(t({ iat: rig.clock.now() - 30_001 }))).status, 403);
  // The format, but no claims a token has ("{}").
  assertEquals((await post("v1.e30." + "0".repeat(128))).status, 403);
  const good = t();
  const forged = good.slice(0, -2) + (good.endsWith("00") ? "11" : "00");
  assertEquals((await post(forged)).status, 403);
  // A session of another site cannot get this site's token.
  const blog = await addSite(rig.t, {
    name: "blog",
    origins: [SHOP, "https://blog.example"],
    min_chain: 1,
  });
  const d = await session(rig, blog, 1);
  assertEquals(
    (await post(buildToken(d, site, { hn: "shop.example", iat: rig.clock.now() }))).status,
    403,
  );
  assertEquals((await post(good)).status, 200);
  assertEquals((await post(good)).status, 409);
});

Deno.test("a token expires after token_ttl_s by the server's clock", async () => {
  const { rig, site } = await rigWithSite({ token_ttl_s: 10 });
  await using _ = rig;
  const url = `${rig.t.attest}/siteverify`;
  const a = await issued(rig, site);
  const b = await issued(rig, site);
  // b was issued 6.3 s after a (its own session's heartbeats): verify each at its edge.
  const issuedB = rig.clock.now();
  rig.clock.set(issuedB + 10_000);
  assertEquals((await turnstileVerify(url, { secret: site.secret, response: b })).success, true);
  assertEquals((await turnstileVerify(url, { secret: site.secret, response: a }))["error-codes"], [
    "timeout-or-duplicate",
  ]);
  const c = await issued(rig, site);
  rig.clock.advance(10_001);
  assertEquals((await turnstileVerify(url, { secret: site.secret, response: c }))["error-codes"], [
    "timeout-or-duplicate",
  ]);
});

Deno.test("idempotency_key: the same key gets the first answer again, another key or none gets timeout-or-duplicate", async () => {
  const { rig, site } = await rigWithSite();
  await using _ = rig;
  const url = `${rig.t.attest}/siteverify`;
  const token = await issued(rig, site);
  const key = crypto.randomUUID();
  const first = await turnstileVerify(url, {
    secret: site.secret,
    response: token,
    idempotency_key: key,
  });
  assertEquals(first.success, true);
  rig.clock.advance(1000);
  const again = await turnstileVerify(url, {
    secret: site.secret,
    response: token,
    idempotency_key: key,
  }, "json");
  assertEquals(again, first);
  const other = await turnstileVerify(url, {
    secret: site.secret,
    response: token,
    idempotency_key: crypto.randomUUID(),
  });
  assertEquals(other["error-codes"], ["timeout-or-duplicate"]);
  assertEquals(
    (await turnstileVerify(url, { secret: site.secret, response: token }))["error-codes"],
    [
      "timeout-or-duplicate",
    ],
  );
});

Deno.test("per-site token counters in /metrics: issued, refused, verified, reused, failed by error code", async () => {
  const { rig, site } = await rigWithSite();
  await using _ = rig;
  const url = `${rig.t.attest}/siteverify`;
  const token = await issued(rig, site);
  const short = await session(rig, site, 1);
  assertEquals((await postToken(rig.t.attest, tokenFor(rig, site, short), SHOP)).status, 409);
  await turnstileVerify(url, { secret: site.secret, response: token });
  await turnstileVerify(url, { secret: site.secret, response: token });
  await turnstileVerify(url, { secret: site.secret, response: "nonsense" });
  await turnstileVerify(url, { secret: "sk_wrong", response: token });
  const text = await rig.metrics();
  const value = (line: string) => {
    const hit = text.split("\n").find((l) => l.startsWith(line + " "));
    return hit === undefined ? undefined : Number(hit.slice(line.length + 1));
  };
  const s = `site="${site.site_key}"`;
  assertEquals(value(`attest_site_tokens_issued_total{${s}}`), 1);
  assertEquals(value(`attest_site_tokens_refused_total{${s}}`), 1);
  assertEquals(value(`attest_site_tokens_verified_total{${s}}`), 1);
  assertEquals(value(`attest_site_tokens_reused_total{${s}}`), 1);
  assertEquals(value(`attest_site_siteverify_failed_total{${s},error="timeout-or-duplicate"}`), 1);
  assertEquals(
    value(`attest_site_siteverify_failed_total{${s},error="invalid-input-response"}`),
    1,
  );
  assertEquals(
    value(`attest_site_siteverify_failed_total{site="",error="invalid-input-secret"}`),
    1,
  );
  assertNotEquals(text.indexOf("attest_site_tokens_issued_total"), -1);
  // A site created after this one is deleted takes its counter slot, not its figures.
  const api = apiClient(rig.t.admin, { cookie: await rig.t.login() });
  assertEquals((await api.del(`/attest/sites/${site.id}`)).status, 200);
  const next = await addSite(rig.t, { name: "next", origins: [SHOP], min_chain: 1 });
  const after = await rig.metrics();
  const n = `site="${next.site_key}"`;
  for (const f of ["issued", "refused", "verified", "reused"]) {
    assert(after.includes(`attest_site_tokens_${f}_total{${n}} 0\n`), f);
  }
  assert(
    after.includes(`attest_site_siteverify_failed_total{${n},error="timeout-or-duplicate"} 0\n`),
  );
});
