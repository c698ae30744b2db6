/**
 * Per-site analytics (docs/attestation_sites.md, "Per-site analytics"): what
 * a test did to a site through the reference client — sessions, accepted and
 * rejected heartbeats, tokens issued, verified, reused and failed — is what
 * the sites list, the site's page (since start, over time, its sessions'
 * signals) and /metrics say, to the unit. Another site's traffic counts for
 * it alone. The expected numbers are written here, not read from the code.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { type AttestClient, DESKTOP_FINGERPRINT, humanPath } from "../../lib/attest/client.ts";
import { loadCore } from "../../lib/attest/core.ts";
import type { BusEvent } from "../../lib/events/bus.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import { getPage, rowText } from "../helpers/dashboard.ts";
import {
  addSite,
  buildToken,
  postToken,
  siteClient,
  type TestSite,
} from "../helpers/site_tokens.ts";
import { turnstileVerify } from "../helpers/turnstile_verifier.ts";

const SHOP = "https://shop.example";
const OTHER = "https://other.example";
const core = await loadCore();

function metric(text: string, line: string): number | undefined {
  const hit = text.split("\n").find((l) => l.startsWith(line + " "));
  return hit === undefined ? undefined : Number(hit.slice(line.length + 1));
}

/** The figures of the page's "since start" list, by name. */
function figures(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/data-figure="([a-z_]+)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]]),
  );
}

/** The two totals (last hour, last 24 h) of a series row of "Over time". */
function seriesTotals(html: string, series: string): string[] {
  const row = new RegExp(`<tr[^>]*data-series="${series}"[^>]*>([\\s\\S]*?)</tr>`).exec(html);
  assert(row, `no row for ${series}`);
  return [...row[1].matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
}

Deno.test("the sites list, the site's page and /metrics show exactly the sessions, heartbeats and tokens a test made for the site", async () => {
  await using rig = await startAttestRig();
  const { t, clock } = rig;
  const site = await addSite(t, { name: "shop", origins: [SHOP], min_chain: 3, token_ttl_s: 60 });
  const other = await addSite(t, { name: "other", origins: [OTHER] });
  // The history starts its tracks (at zero) on its first read after a site exists.
  t.services.attestSites.history.tick();
  const events: BusEvent[] = [];
  const off = t.services.events.subscribe((e) => events.push(e));

  const now = () => clock.now();
  // Session 1: 3 accepted heartbeats at uneven intervals; the third reports another CPU count.
  const c1 = await siteClient(core, t.attest, site, SHOP, now);
  for (const [i, gap] of [2300, 3100, 2700].entries()) {
    clock.advance(gap);
    const fingerprint = i === 2 ? { ...DESKTOP_FINGERPRINT, hardwareConcurrency: 4 } : undefined;
    assert(await c1.heartbeat({ fingerprint }));
  }
  // Two rejected for too few mouse samples (the client's state stays), one for an unknown session.
  for (let i = 0; i < 2; i++) {
    clock.advance(2500);
    const req = c1.prepareHeartbeat({ events: humanPath(clock.now(), 2) }).request;
    assertEquals(await postHb(t.attest, req, SHOP), 200);
  }
  clock.advance(2500);
  const lost = { ...c1.prepareHeartbeat().request, session_id: "ab".repeat(32) };
  assertEquals(await postHb(t.attest, lost, SHOP), 200);
  // Session 2: 6 accepted heartbeats exactly 2.6 s apart: timing too regular.
  const c2 = await siteClient(core, t.attest, site, SHOP, now);
  for (let i = 0; i < 6; i++) {
    clock.advance(2600);
    assert(await c2.heartbeat());
  }
  // The other site: one session, one heartbeat, counted for it alone.
  const o1 = await siteClient(core, t.attest, other, OTHER, now);
  clock.advance(2500);
  assert(await o1.heartbeat());

  // Tokens: 3 issued, 2 verified, one of those verified again (reused), one never issued.
  const issue = async (c: AttestClient) => {
    const token = buildToken(c, site, { hn: "shop.example", iat: clock.now() });
    const r = await postToken(t.attest, token, SHOP);
    assertEquals(r.status, 200, JSON.stringify(r.body));
    return token;
  };
  const tokens = [await issue(c1), await issue(c2), await issue(c2)];
  const verify = (response: string, s: TestSite = site) =>
    turnstileVerify(`${t.attest}/siteverify`, { secret: s.secret, response });
  assertEquals((await verify(tokens[0])).success, true);
  assertEquals((await verify(tokens[1])).success, true);
  assertEquals((await verify(tokens[0]))["error-codes"], ["timeout-or-duplicate"]);
  const never = buildToken(c1, site, { hn: "shop.example", iat: clock.now() });
  assertEquals((await verify(never))["error-codes"], ["invalid-input-response"]);

  t.services.attestSites.history.tick();
  off();
  assert(events.some((e) => e.type === "AttestSiteStats"), "a changed figure is announced");

  const cookie = await t.login();
  const list = (await getPage(t, "/attestation/sites", cookie)).html;
  // Sessions, refused /init, accepted, rejected, issued, verified, failed, reused.
  assertEquals(
    rowText(list, "data-site-id", site.id),
    `shop ${site.site_key} ${SHOP} 2 0 9 3 3 2 2 1`,
  );
  assertEquals(
    rowText(list, "data-site-id", other.id),
    `other ${other.site_key} ${OTHER} 1 0 1 0 0 0 0 0`,
  );
  assertStringIncludes(list, 'id="sites-table"');

  const html = (await getPage(t, `/attestation/sites/${site.id}`, cookie)).html;
  assertEquals(figures(html), {
    sessions: "2",
    init_refused: "0",
    accepted: "9",
    rejected: "3",
    issued: "3",
    refused: "0",
    verified: "2",
    failed: "2",
    reused: "1",
  });
  assertEquals(
    /data-breakdown="rejected">([^<]*)</.exec(html)?.[1],
    "mouse_events 2, unknown_session 1",
  );
  assertEquals(
    /data-breakdown="failed">([^<]*)</.exec(html)?.[1],
    "invalid-input-response 1, timeout-or-duplicate 1",
  );
  // Over time: everything happened within the last hour and the last day.
  const expected: Record<string, string> = {
    sessions: "2",
    accepted: "9",
    rejected: "3",
    issued: "3",
    verified: "2",
    failed: "2",
    reused: "1",
  };
  for (const [series, n] of Object.entries(expected)) {
    assertEquals(seriesTotals(html, series), [n, n], series);
  }
  assertStringIncludes(html, '<svg class="spark"');
  // Its sessions, newest first, with their flags; the flag counts.
  const sessionRow = (c: AttestClient) => rowText(html, "data-session-id", c.session!.session_id);
  assertEquals(sessionRow(c2)?.endsWith(" 6 timing_regular"), true, sessionRow(c2) ?? "");
  assertEquals(sessionRow(c1)?.endsWith(" 3 fingerprint_inconsistent"), true, sessionRow(c1) ?? "");
  assertEquals(sessionRow(o1), null, "another site's session is not listed");
  assert(html.indexOf(c2.session!.session_id) < html.indexOf(c1.session!.session_id));
  const flagCounts = Object.fromEntries(
    [...html.matchAll(/data-flag-count="([a-z_]+)">([^<]*)</g)].map((m) => [m[1], m[2]]),
  );
  assertEquals(flagCounts, {
    path_regular: "0",
    replay: "0",
    timing_regular: "1",
    fingerprint_inconsistent: "1",
  });

  const m = await rig.metrics();
  const label = `site="${site.site_key}"`;
  const expectedMetrics: [string, number][] = [
    [`attest_site_sessions_created_total{${label}}`, 2],
    [`attest_site_heartbeats_accepted_total{${label}}`, 9],
    [`attest_site_heartbeats_rejected_total{${label},reason="mouse_events"}`, 2],
    [`attest_site_heartbeats_rejected_total{${label},reason="unknown_session"}`, 1],
    [`attest_site_tokens_issued_total{${label}}`, 3],
    [`attest_site_tokens_verified_total{${label}}`, 2],
    [`attest_site_tokens_reused_total{${label}}`, 1],
    [`attest_site_siteverify_failed_total{${label},error="timeout-or-duplicate"}`, 1],
    [`attest_site_siteverify_failed_total{${label},error="invalid-input-response"}`, 1],
    [`attest_site_siteverify_failed_total{${label},error="invalid-input-secret"}`, 0],
    [`attest_site_heartbeats_accepted_total{site="${other.site_key}"}`, 1],
    [`attest_site_tokens_issued_total{site="${other.site_key}"}`, 0],
  ];
  for (const [line, n] of expectedMetrics) assertEquals(metric(m, line), n, line);
});

async function postHb(base: string, body: unknown, origin: string): Promise<number> {
  const res = await fetch(`${base}/hb`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}
