/**
 * Automation signals through the real attestation listener
 * (docs/attestation_sites.md, "Signals"): measured on accepted heartbeats of
 * sessions whose requests come from a site's origin, never for the others;
 * a path sent again by another session is a replay; a fixed heartbeat period
 * and a changing hardwareConcurrency are flagged; acceptance is unchanged;
 * the rows go with their session and the path hashes with age.
 */
import { assert, assertEquals } from "../assert.ts";
import { AttestClient, humanPath } from "../../lib/attest/client.ts";
import type { EntropyEvent } from "../../lib/attest/canonical.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { siteTransport } from "../helpers/site_tokens.ts";

const SHOP = "https://shop.example";
/** Within the default 12–25 s window, spread like the client's uniform jitter. */
const JITTERED = [13_100, 22_700, 17_400, 24_100, 12_800, 19_900];

Deno.test("a site's sessions get signals: a human-like session none flagged, a replay of its paths on a fixed period flagged replay and timing_regular; a session of no site none", async () => {
  await using rig = await startAttestRig();
  const api = apiClient(rig.t.admin, { cookie: await rig.t.login() });
  const site = (await api.post("/attest/sites", { name: "shop", origins: [SHOP] })).body as {
    id: string;
    site_key: string;
  };
  const core = await loadCore();
  const now = () => rig.clock.now();
  const human = new AttestClient(core, siteTransport(rig.t.attest, site.site_key, SHOP), now);
  await human.init();
  const sent: EntropyEvent[][] = [];
  for (const gap of JITTERED) {
    rig.clock.advance(gap);
    const events = humanPath(rig.clock.now());
    sent.push(events);
    assertEquals(await human.heartbeat({ events }), true);
  }
  const h = rig.t.services.attestSqlite!.signalsOf(human.session!.session_id);
  assert(h, "signals of the site's session");
  assertEquals(h.site_id, site.id);
  assertEquals(h.heartbeats, 6);
  assertEquals(h.flags, []);
  assertEquals([h.timing.intervals, h.replay.hashed, h.replay.seen_elsewhere], [5, 6, 0]);
  assert(h.path.triples > 100 && h.path.regular_fraction! < 0.3, JSON.stringify(h.path));

  // Another session sends the same paths again, moved on the page and in time, every 15 s.
  const bot = new AttestClient(core, siteTransport(rig.t.attest, site.site_key, SHOP), now);
  await bot.init();
  for (const events of sent) {
    rig.clock.advance(15_000);
    const shift = rig.clock.now() - events[events.length - 1].t;
    const replayed = events.map((e) => ({ x: e.x + 40, y: e.y - 25, t: e.t + shift }));
    // Signals never reject: the spec's checks pass, so each is accepted.
    assertEquals(await bot.heartbeat({ events: replayed }), true);
  }
  const b = rig.t.services.attestSqlite!.signalsOf(bot.session!.session_id)!;
  assertEquals(b.flags, ["replay", "timing_regular"]);
  assertEquals(b.replay.seen_elsewhere, 6);
  assertEquals([b.timing.mean_ms, b.timing.sd_ms], [15_000, 0]);
  // The original is not blamed for being copied.
  assertEquals(rig.t.services.attestSqlite!.signalsOf(human.session!.session_id)!.flags, []);

  // Same page and heartbeats, but no site's Origin: nothing measured, nothing stored.
  const plain = new AttestClient(
    core,
    siteTransport(rig.t.attest, null, "https://other.example"),
    now,
  );
  await plain.init();
  rig.clock.advance(15_000);
  assertEquals(await plain.heartbeat({ events: sent[0] }), true);
  assertEquals(rig.t.services.attestSqlite!.signalsOf(plain.session!.session_id), null);
});

Deno.test("a hardwareConcurrency that changes within a site's session is flagged fingerprint_inconsistent; the row goes with the purged session and path hashes after the replay window", async () => {
  await using rig = await startAttestRig();
  const api = apiClient(rig.t.admin, { cookie: await rig.t.login() });
  const site = (await api.post("/attest/sites", { name: "shop", origins: [SHOP] })).body as {
    site_key: string;
  };
  const c = new AttestClient(
    await loadCore(),
    siteTransport(rig.t.attest, site.site_key, SHOP),
    () => rig.clock.now(),
  );
  await c.init();
  const fp = { aspectRatio: "1.7777777778", devicePixelRatio: "1", hardwareConcurrency: 8 };
  rig.clock.advance(13_000);
  assertEquals(await c.heartbeat({ fingerprint: fp }), true);
  assertEquals(rig.t.services.attestSqlite!.signalsOf(c.session!.session_id)!.flags, []);
  rig.clock.advance(13_000);
  assertEquals(await c.heartbeat({ fingerprint: { ...fp, hardwareConcurrency: 4 } }), true);
  const s = rig.t.services.attestSqlite!.signalsOf(c.session!.session_id)!;
  assertEquals(s.flags, ["fingerprint_inconsistent"]);
  assertEquals(s.fingerprint.changes, {
    aspect_ratio: 0,
    device_pixel_ratio: 0,
    hardware_concurrency: 1,
  });

  const store = rig.t.store;
  const hashes = () =>
    rawRow<{ n: number }>(store, "attest_signal_paths", ["count(*) AS n"], {
      session_key: parseInt(c.session!.session_id.slice(0, 13), 16),
    })!.n;
  assertEquals(hashes(), 2);
  // Expired (30 min) and past the purge grace: the session and its signals go, the hashes stay.
  rig.clock.advance(40 * 60_000);
  assert(rig.t.services.attestSqlite!.purgeExpired() >= 1);
  assertEquals(rig.t.services.attestSqlite!.signalsOf(c.session!.session_id), null);
  assertEquals(hashes(), 2);
  rig.clock.advance(24 * 3_600_000);
  rig.t.services.attestSqlite!.purgeExpired();
  assertEquals(hashes(), 0);
});
