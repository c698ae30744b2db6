/**
 * Automation signals (lib/attest/signals/signal_repo.ts, pg_signal_repo.ts)
 * behave the same on SQLite and PostgreSQL: running sums per session, the
 * changes of the device flags against the first heartbeat, replays of one path by other sessions, the
 * recent sessions of a site, and purge of old path hashes.
 */
import { assertEquals } from "../assert.ts";
import type { SignalObservation } from "../../lib/attest/signals/signal_repo.ts";
import { attestRepos, session } from "./attest_fixtures.ts";
import { repoContract } from "./engines.ts";

const A = "a".repeat(32);
const B = "b".repeat(32);
const C = "c".repeat(32);

function obs(id: string, at: number, over: Partial<SignalObservation> = {}): SignalObservation {
  return {
    session_id: id,
    site_id: "s1",
    at,
    tally: {
      triples: 4,
      collinear: 1,
      even: 2,
      regular: 0,
      segments: 5,
      speedSum: 1.5,
      speedSumSq: 2.25,
      dtSum: 40,
      dtSumSq: 400,
    },
    hash: null,
    aspect_ratio: "16:9",
    device_pixel_ratio: "2",
    hardware_concurrency: 8,
    ...over,
  } as SignalObservation;
}

async function withSessions(e: Parameters<typeof attestRepos>[0]) {
  const r = attestRepos(e);
  for (const [i, id] of [A, B, C].entries()) {
    await r.sessions.create(session(id, 10_000, { created_at: i }));
  }
  return r;
}

repoContract("SignalRepo", {
  "heartbeats add up into one row per session": async (e) => {
    const { signals } = await withSessions(e);
    assertEquals(await signals.get(A), undefined);
    await signals.record(obs(A, 1000));
    await signals.record(obs(A, 3000, { device_pixel_ratio: "1", hardware_concurrency: 4 }));
    await signals.record(obs(A, 6000, { device_pixel_ratio: "1" }));
    assertEquals({ ...await signals.get(A) }, {
      session_id: A,
      site_id: "s1",
      heartbeats: 3,
      triples: 12,
      collinear: 3,
      even: 6,
      regular: 0,
      segments: 15,
      speed_sum: 4.5,
      speed_sumsq: 6.75,
      dt_sum: 120,
      dt_sumsq: 1200,
      intervals: 2,
      interval_sum: 5000,
      interval_sumsq: 2000 * 2000 + 3000 * 3000,
      last_at: 6000,
      aspect_ratio_changes: 0,
      // Each heartbeat is compared with the first one's values, which the row keeps.
      device_pixel_ratio_changes: 2,
      hardware_concurrency_changes: 1,
      hashes: 0,
      replays: 0,
      created_at: 1000,
    });
  },
  "a path sent by other sessions counts as their replays, not its own": async (e) => {
    const { signals } = await withSessions(e);
    await signals.record(obs(A, 1000, { hash: 77 }));
    await signals.record(obs(A, 2000, { hash: 77 }));
    await signals.record(obs(B, 3000, { hash: 77 }));
    await signals.record(obs(C, 4000, { hash: 77 }));
    assertEquals(
      [(await signals.get(A))?.replays, (await signals.get(A))?.hashes],
      [0, 2],
    );
    assertEquals((await signals.get(B))?.replays, 1);
    assertEquals((await signals.get(C))?.replays, 2);
  },
  "a site's recent sessions, newest first, at most the limit": async (e) => {
    const { signals } = await withSessions(e);
    await signals.record(obs(A, 1000));
    await signals.record(obs(B, 3000));
    await signals.record(obs(C, 2000, { site_id: "s2" }));
    await signals.record(obs(A, 5000));
    assertEquals((await signals.recentOfSite("s1", 10)).map((r) => r.session_id), [B, A]);
    assertEquals((await signals.recentOfSite("s1", 1)).map((r) => r.session_id), [B]);
    assertEquals(await signals.recentOfSite("s3", 10), []);
  },
  "purge forgets path hashes seen before the cutoff": async (e) => {
    const { signals } = await withSessions(e);
    await signals.record(obs(A, 1000, { hash: 5 }));
    await signals.record(obs(B, 3000, { hash: 6 }));
    assertEquals(await signals.purgePaths(2000), 1);
    await signals.record(obs(C, 4000, { hash: 5 }));
    assertEquals((await signals.get(C))?.replays, 0);
    assertEquals(await signals.purgePaths(10_000), 2);
  },
});
