/**
 * Automation signals on PostgreSQL: the twin of `SqliteSignalRepoAsync`.
 * The session's row is one UPSERT of running sums (no read-modify-write, so
 * two instances adding to one session both count); a flag that changed
 * counts as 1, as SQLite's comparison does.
 */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  REPLAY_COUNT_CAP,
  sessionKey,
  type SignalObservation,
  type SignalRepoAsync,
  type SignalRow,
} from "./signal_repo.ts";

export class PgSignalRepo implements SignalRepoAsync {
  constructor(private readonly db: PgAsync) {}

  async record(o: SignalObservation): Promise<void> {
    const t = o.tally;
    const key = sessionKey(o.session_id);
    let replays = 0;
    if (o.hash !== null) {
      const [r] = await this.db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM (SELECT 1 FROM attest_signal_paths
          WHERE hash = ${o.hash} AND session_key <> ${key} LIMIT ${REPLAY_COUNT_CAP}) p`;
      replays = r.n;
    }
    await this.db.sql`
      INSERT INTO attest_signals AS s (session_id, site_id, heartbeats, triples, collinear, even,
        regular, segments, speed_sum, speed_sumsq, dt_sum, dt_sumsq, intervals, interval_sum,
        interval_sumsq, last_at, aspect_ratio, device_pixel_ratio, hardware_concurrency,
        aspect_ratio_changes, device_pixel_ratio_changes, hardware_concurrency_changes, hashes,
        replays, created_at)
      VALUES (${o.session_id}, ${o.site_id}, 1, ${t.triples}, ${t.collinear}, ${t.even},
        ${t.regular}, ${t.segments}, ${t.speedSum}, ${t.speedSumSq}, ${t.dtSum}, ${t.dtSumSq},
        0, 0, 0, ${o.at}, ${o.aspect_ratio}, ${o.device_pixel_ratio}, ${o.hardware_concurrency},
        0, 0, 0, ${o.hash === null ? 0 : 1}, ${replays}, ${o.at})
      ON CONFLICT (session_id) DO UPDATE SET
        heartbeats = s.heartbeats + 1,
        triples = s.triples + excluded.triples,
        collinear = s.collinear + excluded.collinear,
        even = s.even + excluded.even,
        regular = s.regular + excluded.regular,
        segments = s.segments + excluded.segments,
        speed_sum = s.speed_sum + excluded.speed_sum,
        speed_sumsq = s.speed_sumsq + excluded.speed_sumsq,
        dt_sum = s.dt_sum + excluded.dt_sum,
        dt_sumsq = s.dt_sumsq + excluded.dt_sumsq,
        intervals = s.intervals + 1,
        interval_sum = s.interval_sum + (excluded.last_at - s.last_at),
        interval_sumsq = s.interval_sumsq
          + (excluded.last_at - s.last_at)::float8 * (excluded.last_at - s.last_at),
        last_at = excluded.last_at,
        aspect_ratio_changes = s.aspect_ratio_changes
          + (s.aspect_ratio <> excluded.aspect_ratio)::int,
        device_pixel_ratio_changes = s.device_pixel_ratio_changes
          + (s.device_pixel_ratio <> excluded.device_pixel_ratio)::int,
        hardware_concurrency_changes = s.hardware_concurrency_changes
          + (s.hardware_concurrency <> excluded.hardware_concurrency)::int,
        hashes = s.hashes + excluded.hashes,
        replays = s.replays + excluded.replays`;
    if (o.hash !== null) {
      await this.db.sql`
        INSERT INTO attest_signal_paths (hash, session_key, seen_at)
        VALUES (${o.hash}, ${key}, ${o.at}) ON CONFLICT DO NOTHING`;
    }
  }

  async get(sessionId: string): Promise<SignalRow | undefined> {
    const [r] = await this.db.sql<SignalRow[]>`
      SELECT session_id, site_id, heartbeats, triples, collinear, even, regular, segments,
        speed_sum, speed_sumsq, dt_sum, dt_sumsq, intervals, interval_sum, interval_sumsq, last_at,
        aspect_ratio_changes, device_pixel_ratio_changes, hardware_concurrency_changes, hashes,
        replays, created_at
      FROM attest_signals WHERE session_id = ${sessionId}`;
    return r;
  }

  async recentOfSite(siteId: string, limit: number): Promise<SignalRow[]> {
    return [
      ...await this.db.sql<SignalRow[]>`
        SELECT session_id, site_id, heartbeats, triples, collinear, even, regular, segments,
          speed_sum, speed_sumsq, dt_sum, dt_sumsq, intervals, interval_sum, interval_sumsq,
          last_at, aspect_ratio_changes, device_pixel_ratio_changes, hardware_concurrency_changes,
          hashes, replays, created_at
        FROM attest_signals WHERE site_id = ${siteId}
        ORDER BY created_at DESC, session_id LIMIT ${limit}`,
    ];
  }

  async purgePaths(cutoff: number): Promise<number> {
    const { count } = await this.db.sql`
      DELETE FROM attest_signal_paths WHERE seen_at < ${cutoff}`;
    return count;
  }
}
