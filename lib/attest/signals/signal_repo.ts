/**
 * Storage of per-session automation signals (migration 13). `record` runs
 * inside the group commit's transaction, right after the heartbeat's
 * compare-and-set succeeded, and reads nothing but the replay probe: the
 * session's row is one UPSERT of running sums, so no read-modify-write.
 * `SignalRepo` (synchronous) is the SQLite group commit's; `SignalRepoAsync`
 * is the same on either engine (`SqliteSignalRepoAsync` here, `PgSignalRepo`
 * in `pg_signal_repo.ts`).
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { Store } from "../../store/store.ts";
import type { PathTally } from "./path.ts";

/** What one accepted heartbeat of a site's session adds. */
export interface SignalObservation {
  session_id: string;
  site_id: string;
  /** Server time of acceptance. */
  at: number;
  tally: PathTally;
  /** pathHash of the samples, null when too few to hash. */
  hash: number | null;
  aspect_ratio: string;
  device_pixel_ratio: string;
  hardware_concurrency: number;
}

/** A session's stored sums. */
export interface SignalRow {
  session_id: string;
  site_id: string;
  heartbeats: number;
  triples: number;
  collinear: number;
  even: number;
  regular: number;
  segments: number;
  speed_sum: number;
  speed_sumsq: number;
  dt_sum: number;
  dt_sumsq: number;
  intervals: number;
  interval_sum: number;
  interval_sumsq: number;
  last_at: number;
  aspect_ratio_changes: number;
  device_pixel_ratio_changes: number;
  hardware_concurrency_changes: number;
  hashes: number;
  replays: number;
  created_at: number;
}

/** A session's key in the path table: the first 52 bits of its random hex id. */
export function sessionKey(sessionId: string): number {
  return parseInt(sessionId.slice(0, 13), 16);
}

/** Most matches a single heartbeat's path counts. */
export const REPLAY_COUNT_CAP = 100;

export interface SignalRepo {
  /** Adds an accepted heartbeat's measures; counts other sessions that sent the same path. */
  record(o: SignalObservation): void;
  get(sessionId: string): SignalRow | undefined;
  /** Deletes path hashes seen before `cutoff`; returns how many. */
  purgePaths(cutoff: number): number;
  /** A site's sessions with signals, latest first heartbeat first, at most `limit`. */
  recentOfSite(siteId: string, limit: number): SignalRow[];
}

/** The same tables, asynchronous. */
export interface SignalRepoAsync {
  record(o: SignalObservation): Promise<void>;
  get(sessionId: string): Promise<SignalRow | undefined>;
  purgePaths(cutoff: number): Promise<number>;
  recentOfSite(siteId: string, limit: number): Promise<SignalRow[]>;
}

const UPSERT =
  `INSERT INTO attest_signals (session_id, site_id, heartbeats, triples, collinear, even,
    regular, segments, speed_sum, speed_sumsq, dt_sum, dt_sumsq, intervals, interval_sum,
    interval_sumsq, last_at, aspect_ratio, device_pixel_ratio, hardware_concurrency,
    aspect_ratio_changes, device_pixel_ratio_changes, hardware_concurrency_changes, hashes, replays,
    created_at)
  VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?)
  ON CONFLICT (session_id) DO UPDATE SET
    heartbeats = heartbeats + 1,
    triples = triples + excluded.triples,
    collinear = collinear + excluded.collinear,
    even = even + excluded.even,
    regular = regular + excluded.regular,
    segments = segments + excluded.segments,
    speed_sum = speed_sum + excluded.speed_sum,
    speed_sumsq = speed_sumsq + excluded.speed_sumsq,
    dt_sum = dt_sum + excluded.dt_sum,
    dt_sumsq = dt_sumsq + excluded.dt_sumsq,
    intervals = intervals + 1,
    interval_sum = interval_sum + (excluded.last_at - last_at),
    interval_sumsq = interval_sumsq + (excluded.last_at - last_at) * (excluded.last_at - last_at),
    last_at = excluded.last_at,
    aspect_ratio_changes = aspect_ratio_changes + (aspect_ratio <> excluded.aspect_ratio),
    device_pixel_ratio_changes = device_pixel_ratio_changes
      + (device_pixel_ratio <> excluded.device_pixel_ratio),
    hardware_concurrency_changes = hardware_concurrency_changes
      + (hardware_concurrency <> excluded.hardware_concurrency),
    hashes = hashes + excluded.hashes,
    replays = replays + excluded.replays`;

const ROW_COLUMNS = `session_id, site_id, heartbeats, triples, collinear, even, regular, segments,
  speed_sum, speed_sumsq, dt_sum, dt_sumsq, intervals, interval_sum, interval_sumsq, last_at,
  aspect_ratio_changes, device_pixel_ratio_changes, hardware_concurrency_changes, hashes, replays,
  created_at`;

export class SqliteSignalRepo implements SignalRepo {
  constructor(private readonly store: Store) {}

  record(o: SignalObservation): void {
    const t = o.tally;
    let replays = 0;
    if (o.hash !== null) {
      // Capped, so a trace replayed by a crowd costs each of them a bounded probe.
      replays = this.store.get<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM attest_signal_paths
           WHERE hash = ? AND session_key <> ? LIMIT ${REPLAY_COUNT_CAP})`,
        o.hash,
        sessionKey(o.session_id),
      )!.n;
    }
    this.store.run(
      UPSERT,
      o.session_id,
      o.site_id,
      t.triples,
      t.collinear,
      t.even,
      t.regular,
      t.segments,
      t.speedSum,
      t.speedSumSq,
      t.dtSum,
      t.dtSumSq,
      o.at,
      o.aspect_ratio,
      o.device_pixel_ratio,
      o.hardware_concurrency,
      o.hash === null ? 0 : 1,
      replays,
      o.at,
    );
    if (o.hash !== null) {
      this.store.run(
        "INSERT OR IGNORE INTO attest_signal_paths (hash, session_key, seen_at) VALUES (?, ?, ?)",
        o.hash,
        sessionKey(o.session_id),
        o.at,
      );
    }
  }

  get(sessionId: string): SignalRow | undefined {
    return this.store.get<SignalRow>(
      `SELECT ${ROW_COLUMNS} FROM attest_signals WHERE session_id = ?`,
      sessionId,
    );
  }

  recentOfSite(siteId: string, limit: number): SignalRow[] {
    // attest_signals_site (migration 17) makes this an index range read.
    return this.store.all<SignalRow>(
      `SELECT ${ROW_COLUMNS} FROM attest_signals WHERE site_id = ?
       ORDER BY created_at DESC, session_id LIMIT ?`,
      siteId,
      limit,
    );
  }

  purgePaths(cutoff: number): number {
    return this.store.run("DELETE FROM attest_signal_paths WHERE seen_at < ?", cutoff).changes;
  }
}

/** `SignalRepoAsync` on SQLite: the synchronous statements above, through the store's queue. */
export class SqliteSignalRepoAsync implements SignalRepoAsync {
  constructor(private readonly db: SqliteAsync) {}

  #sync<T>(fn: (repo: SqliteSignalRepo) => T): Promise<T> {
    return this.db.run((store) => fn(new SqliteSignalRepo(store)));
  }

  record(o: SignalObservation): Promise<void> {
    return this.#sync((r) => r.record(o));
  }

  get(sessionId: string): Promise<SignalRow | undefined> {
    return this.#sync((r) => r.get(sessionId));
  }

  purgePaths(cutoff: number): Promise<number> {
    return this.#sync((r) => r.purgePaths(cutoff));
  }

  recentOfSite(siteId: string, limit: number): Promise<SignalRow[]> {
    return this.#sync((r) => r.recentOfSite(siteId, limit));
  }
}
