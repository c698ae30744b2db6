/**
 * Per-session automation signals (docs/attestation_sites.md, "Signals"):
 * measured on each accepted heartbeat of a session that belongs to a site,
 * stored as running sums in the acceptance's group commit, and read back as a
 * view for siteverify and the dashboard. Signals never reject anything.
 */
import { isoTime } from "../../clock.ts";
import type { HeartbeatRequest } from "../messages.ts";
import { coefficientOfVariation, emptyTally, pathHash, pathRegular, tallyPath } from "./path.ts";
import type { SignalObservation, SignalRepo, SignalRow } from "./signal_repo.ts";
import { fingerprintInconsistent, standardDeviation, timingRegular } from "./timing.ts";

/** Path hashes are kept this long for replay detection. */
export const REPLAY_WINDOW_MS = 24 * 3_600_000;

export type SignalFlag = "path_regular" | "replay" | "timing_regular" | "fingerprint_inconsistent";

/** What siteverify returns under `signals` (computed by the server; see `client` for the rest). */
export interface SessionSignalsView {
  session_id: string;
  site_id: string;
  /** Accepted heartbeats measured (those sent from the site's origin). */
  heartbeats: number;
  /** Every flag raised, in this fixed order: path_regular, replay, timing_regular, fingerprint_inconsistent. */
  flags: SignalFlag[];
  path: {
    regular: boolean;
    /** Triples of consecutive samples judged, and the fractions of them collinear, evenly spaced, both. */
    triples: number;
    collinear_fraction: number | null;
    even_fraction: number | null;
    regular_fraction: number | null;
    /** Coefficients of variation of segment speeds and time deltas within strokes. */
    speed_cv: number | null;
    dt_cv: number | null;
  };
  replay: {
    replay: boolean;
    /** Heartbeats hashed, and how many times one of them matched a path another session had sent. */
    hashed: number;
    seen_elsewhere: number;
  };
  timing: {
    regular: boolean;
    intervals: number;
    mean_ms: number | null;
    sd_ms: number | null;
  };
  fingerprint: {
    inconsistent: boolean;
    /** Heartbeats whose value differed from the session's first. */
    changes: { aspect_ratio: number; device_pixel_ratio: number; hardware_concurrency: number };
  };
  /**
   * Environment hints the client reports with its token (navigator.webdriver,
   * HeadlessChrome, …), filled by the token's verification; null here.
   */
  client: Record<string, unknown> | null;
}

/** A session in a site's list on the dashboard: its signals and when it was measured. */
export type RecentSession = SessionSignalsView & { first_at: string; last_at: string };

export class SessionSignals {
  constructor(
    private readonly repo: SignalRepo | null,
    private readonly options: { heartbeatMinMs: number; heartbeatMaxMs: number },
  ) {}

  /** Whether signals are stored at all (a service built without the repository keeps none). */
  get enabled(): boolean {
    return this.repo !== null;
  }

  /** One accepted heartbeat's measures: O(samples), one tally and one record allocated. */
  observe(hb: HeartbeatRequest, siteId: string, now: number): SignalObservation {
    const events = hb.entropy_data.events;
    return {
      session_id: hb.session_id,
      site_id: siteId,
      at: now,
      tally: tallyPath(events, emptyTally()),
      hash: pathHash(events),
      aspect_ratio: hb.fingerprint.aspectRatio,
      device_pixel_ratio: hb.fingerprint.devicePixelRatio,
      hardware_concurrency: hb.fingerprint.hardwareConcurrency,
    };
  }

  /** The session's signals, or null when it has none (no site, no accepted heartbeat, purged). */
  signalsOf(sessionId: string): SessionSignalsView | null {
    const row = this.repo?.get(sessionId.toLowerCase());
    return row ? signalsView(row, this.options.heartbeatMinMs, this.options.heartbeatMaxMs) : null;
  }

  /** A site's latest measured sessions (by first accepted heartbeat), newest first. */
  recentOfSite(siteId: string, limit: number): RecentSession[] {
    return (this.repo?.recentOfSite(siteId, limit) ?? []).map((r) =>
      recentSession(r, this.options)
    );
  }

  /** Forgets path hashes older than the replay window. */
  purge(now: number): number {
    return this.repo?.purgePaths(now - REPLAY_WINDOW_MS) ?? 0;
  }
}

/** A stored row as the site page lists it. */
export function recentSession(
  r: SignalRow,
  o: { heartbeatMinMs: number; heartbeatMaxMs: number },
): RecentSession {
  return {
    ...signalsView(r, o.heartbeatMinMs, o.heartbeatMaxMs),
    first_at: isoTime(r.created_at),
    last_at: isoTime(r.last_at),
  };
}

const fraction = (n: number, of: number) => of > 0 ? n / of : null;

/** The view of a stored row, judged against the configured heartbeat window. */
export function signalsView(r: SignalRow, minMs: number, maxMs: number): SessionSignalsView {
  const changes = {
    aspect_ratio: r.aspect_ratio_changes,
    device_pixel_ratio: r.device_pixel_ratio_changes,
    hardware_concurrency: r.hardware_concurrency_changes,
  };
  const path = {
    regular: pathRegular(r),
    triples: r.triples,
    collinear_fraction: fraction(r.collinear, r.triples),
    even_fraction: fraction(r.even, r.triples),
    regular_fraction: fraction(r.regular, r.triples),
    speed_cv: coefficientOfVariation(r.segments, r.speed_sum, r.speed_sumsq),
    dt_cv: coefficientOfVariation(r.segments, r.dt_sum, r.dt_sumsq),
  };
  const timing = {
    regular: timingRegular(r.intervals, r.interval_sum, r.interval_sumsq, minMs, maxMs),
    intervals: r.intervals,
    mean_ms: r.intervals > 0 ? r.interval_sum / r.intervals : null,
    sd_ms: r.intervals > 1
      ? standardDeviation(r.intervals, r.interval_sum, r.interval_sumsq)
      : null,
  };
  const replay = { replay: r.replays > 0, hashed: r.hashes, seen_elsewhere: r.replays };
  const fingerprint = { inconsistent: fingerprintInconsistent(changes), changes };
  const flags: SignalFlag[] = [];
  if (path.regular) flags.push("path_regular");
  if (replay.replay) flags.push("replay");
  if (timing.regular) flags.push("timing_regular");
  if (fingerprint.inconsistent) flags.push("fingerprint_inconsistent");
  return {
    session_id: r.session_id,
    site_id: r.site_id,
    heartbeats: r.heartbeats,
    flags,
    path,
    replay,
    timing,
    fingerprint,
    client: null,
  };
}
