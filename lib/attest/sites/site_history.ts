/**
 * Per-site figures over time for the dashboard (docs/attestation_sites.md,
 * "Per-site analytics"), kept by the main thread like the global rates
 * (lib/attest/rates.ts): every `intervalMs` it reads each site's counters
 * (summed over the threads), and it keeps a snapshot of them at each minute
 * for the last hour and at each hour for the last day. A bucket's figure is
 * the difference of two snapshots. It emits `AttestSiteStats` when a figure
 * changed since the last read, so an idle server sends nothing. Nothing here
 * touches the heartbeat path; the history is lost on restart, like the
 * counters it is made of.
 */
import { type Clock, isoTime } from "../../clock.ts";
import type { EventBus } from "../../events/bus.ts";
import type { SiteFiguresAll } from "./site_service.ts";
import { backgroundTick } from "../../background_tick.ts";

export const SITE_SERIES = [
  "sessions",
  "accepted",
  "rejected",
  "issued",
  "verified",
  "failed",
  "reused",
] as const;
export type SiteSeriesName = typeof SITE_SERIES[number];
type Totals = Record<SiteSeriesName, number>;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** Buckets shown: the last hour by minute, the last day by hour. */
export const MINUTE_BUCKETS = 60;
export const HOUR_BUCKETS = 24;

/** One bucket of a site's history: the start of its period and what happened in it. */
export interface SiteBucket {
  at: string;
  figures: Totals;
}

export interface SiteHistoryView {
  minutes: SiteBucket[];
  hours: SiteBucket[];
}

interface Mark {
  at: number;
  totals: Totals;
}

interface Track {
  /** Snapshots at minute boundaries, oldest first, at most MINUTE_BUCKETS + 1. */
  minutes: Mark[];
  hours: Mark[];
}

export function siteTotals(f: SiteFiguresAll): Totals {
  return {
    sessions: f.sessionsCreated,
    accepted: f.accepted,
    rejected: f.rejectedTotal,
    issued: f.tokens.issued,
    verified: f.tokens.verified,
    failed: f.tokens.failedTotal,
    reused: f.tokens.reused,
  };
}

/** What happened between two snapshots; a counter that went down (a slot given to a new site) counts from zero. */
function delta(from: Totals, to: Totals): Totals {
  const out = {} as Totals;
  for (const k of SITE_SERIES) out[k] = to[k] >= from[k] ? to[k] - from[k] : to[k];
  return out;
}

function push(marks: Mark[], mark: Mark, keep: number): void {
  marks.push(mark);
  if (marks.length > keep + 1) marks.shift();
}

/** Buckets between consecutive snapshots, then the open one up to `now`. */
function buckets(marks: Mark[], now: Mark): SiteBucket[] {
  const all = [...marks, now];
  const out: SiteBucket[] = [];
  for (let i = 1; i < all.length; i++) {
    out.push({ at: isoTime(all[i - 1].at), figures: delta(all[i - 1].totals, all[i].totals) });
  }
  return out;
}

export class SiteHistory {
  #tracks = new Map<string, Track>();
  #lastKey = "";
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    /** Every site's id and figures now. */
    private readonly read: () => { id: string; figures: SiteFiguresAll }[],
    private readonly events: EventBus,
    private readonly clock: Clock,
    readonly intervalMs = 5000,
  ) {}

  /** Reads the counters; records a snapshot at each new minute and hour; emits when a figure changed. */
  tick(): void {
    const now = this.clock.now();
    const seen = new Set<string>();
    const current: [string, Totals][] = [];
    for (const s of this.read()) {
      const totals = siteTotals(s.figures);
      seen.add(s.id);
      current.push([s.id, totals]);
      const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
      const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
      let t = this.#tracks.get(s.id);
      if (!t) {
        // Its counters started at zero (server start, or the site's creation, at most a tick ago).
        const zero = delta(totals, totals);
        t = { minutes: [{ at: now, totals: zero }], hours: [{ at: now, totals: zero }] };
        this.#tracks.set(s.id, t);
      }
      if (t.minutes.at(-1)!.at < minute) push(t.minutes, { at: minute, totals }, MINUTE_BUCKETS);
      if (t.hours.at(-1)!.at < hour) push(t.hours, { at: hour, totals }, HOUR_BUCKETS);
    }
    for (const id of this.#tracks.keys()) if (!seen.has(id)) this.#tracks.delete(id);
    const key = JSON.stringify(current);
    if (key !== this.#lastKey) {
      const first = this.#lastKey === "";
      this.#lastKey = key;
      if (!first) this.events.emit("AttestSiteStats", { time: isoTime(now) });
    }
  }

  /** A site's buckets, oldest first, the last one still open; empty before the first tick. */
  view(id: string, figures: SiteFiguresAll): SiteHistoryView {
    const t = this.#tracks.get(id);
    if (!t) return { minutes: [], hours: [] };
    const now: Mark = { at: this.clock.now(), totals: siteTotals(figures) };
    return {
      minutes: buckets(t.minutes, now).slice(-MINUTE_BUCKETS),
      hours: buckets(t.hours, now).slice(-HOUR_BUCKETS),
    };
  }

  /** Starts the timer; it does not keep the process alive. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.tick();
    this.#timer = backgroundTick(() => this.tick(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
