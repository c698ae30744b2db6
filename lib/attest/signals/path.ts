/**
 * Pure measures of a heartbeat's pointer samples for the automation signals
 * (docs/attestation_sites.md, "Signals"). They never decide acceptance: the
 * spec's checks do. Each is one pass over the samples and allocates nothing
 * (the tally is the caller's, reused).
 *
 * Path regularity. Automation moves the pointer along straight lines at a
 * constant speed: Playwright's `mouse.move(x, y, {steps})` dispatches points
 * evenly spaced on the segment. A hand on a mouse or a trackpad makes a
 * curved, accelerating path whose per-event deltas jitter. So each triple of
 * consecutive samples inside one stroke (no pause, both segments long enough
 * to measure) is tested for
 *   - collinear: the middle sample lies within COLLINEAR_TOL_PX of the chord
 *     from the first to the third, and the path does not turn back;
 *   - even: the two segment lengths differ by at most SPACING_TOL_PX +
 *     SPACING_TOL_REL of the longer;
 * and is regular when both hold. Spacing stands for speed: Chromium delivers
 * pointermove once per frame, so a person's time deltas are nearly constant
 * too and say little; their coefficient of variation is reported, not judged.
 */
import type { EntropyEvent } from "../canonical.ts";
import { PAUSE_MS } from "../checks.ts";

/** The middle sample's largest distance from the chord of a collinear triple (samples are 0.1 px). */
export const COLLINEAR_TOL_PX = 0.5;
/** Two segments are evenly spaced when their lengths differ by at most this plus SPACING_TOL_REL. */
export const SPACING_TOL_PX = 0.3;
export const SPACING_TOL_REL = 0.03;
/** Shorter segments are not judged: a slow hand moves a pixel at a time, as evenly as a script. */
export const MIN_SEGMENT_PX = 2;
/** The session's path is flagged regular after this many judged triples ... */
export const REGULAR_MIN_TRIPLES = 16;
/** ... when at least this fraction of them is regular. */
export const REGULAR_MIN_FRACTION = 0.6;
/** Paths shorter than this are not hashed for replay: few samples collide by chance. */
export const HASH_MIN_SAMPLES = 8;

/** Sums over one heartbeat's samples (or, added up, a session's). */
export interface PathTally {
  /** Triples judged (inside a stroke, both segments at least MIN_SEGMENT_PX). */
  triples: number;
  collinear: number;
  even: number;
  /** Collinear and even. */
  regular: number;
  /** Segments with 0 < Δt < PAUSE_MS, over which speed and Δt are summed. */
  segments: number;
  speedSum: number;
  speedSumSq: number;
  dtSum: number;
  dtSumSq: number;
}

export function emptyTally(): PathTally {
  return {
    triples: 0,
    collinear: 0,
    even: 0,
    regular: 0,
    segments: 0,
    speedSum: 0,
    speedSumSq: 0,
    dtSum: 0,
    dtSumSq: 0,
  };
}

/** Fills `out` (reset first) with the measures of `events`, in the order sent; returns it. */
export function tallyPath(events: readonly EntropyEvent[], out: PathTally): PathTally {
  out.triples =
    out.collinear =
    out.even =
    out.regular =
    out.segments =
      0;
  out.speedSum =
    out.speedSumSq =
    out.dtSum =
    out.dtSumSq =
      0;
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1];
    const b = events[i];
    const dt = b.t - a.t;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (dt > 0 && dt < PAUSE_MS) {
      const speed = len / dt;
      out.segments++;
      out.speedSum += speed;
      out.speedSumSq += speed * speed;
      out.dtSum += dt;
      out.dtSumSq += dt * dt;
    }
    if (i >= 2) judgeTriple(events[i - 2], a, b, out);
  }
  return out;
}

function judgeTriple(a: EntropyEvent, b: EntropyEvent, c: EntropyEvent, out: PathTally): void {
  if (!(b.t - a.t < PAUSE_MS && c.t - b.t < PAUSE_MS)) return;
  const ux = b.x - a.x, uy = b.y - a.y, vx = c.x - b.x, vy = c.y - b.y;
  const l1 = Math.hypot(ux, uy);
  const l2 = Math.hypot(vx, vy);
  if (!(l1 >= MIN_SEGMENT_PX && l2 >= MIN_SEGMENT_PX)) return;
  out.triples++;
  const wx = c.x - a.x, wy = c.y - a.y;
  const chord = Math.hypot(wx, wy);
  // Distance of b from the line a–c: |w × u| / |w|; and no turning back (u · v > 0).
  const collinear = ux * vx + uy * vy > 0 &&
    Math.abs(wx * uy - wy * ux) <= COLLINEAR_TOL_PX * chord;
  const even = Math.abs(l1 - l2) <= SPACING_TOL_PX + SPACING_TOL_REL * Math.max(l1, l2);
  if (collinear) out.collinear++;
  if (even) out.even++;
  if (collinear && even) out.regular++;
}

/** Adds `b` into `a`. */
export function addTally(a: PathTally, b: PathTally): PathTally {
  a.triples += b.triples;
  a.collinear += b.collinear;
  a.even += b.even;
  a.regular += b.regular;
  a.segments += b.segments;
  a.speedSum += b.speedSum;
  a.speedSumSq += b.speedSumSq;
  a.dtSum += b.dtSum;
  a.dtSumSq += b.dtSumSq;
  return a;
}

/** Whether a session's summed tally reads as synthetic straight lines at constant speed. */
export function pathRegular(t: Pick<PathTally, "triples" | "regular">): boolean {
  return t.triples >= REGULAR_MIN_TRIPLES && t.regular >= REGULAR_MIN_FRACTION * t.triples;
}

/** Coefficient of variation (population standard deviation over mean) from sums; null below two values or a zero mean. */
export function coefficientOfVariation(n: number, sum: number, sumSq: number): number | null {
  if (n < 2) return null;
  const mean = sum / n;
  if (!(mean > 0)) return null;
  const variance = Math.max(0, sumSq / n - mean * mean);
  return Math.sqrt(variance) / mean;
}

/**
 * A 53-bit hash of the path relative to its first sample: x, y and t minus
 * the first sample's, in tenths (the browser client's resolution), so the
 * same samples sent again in another session, moved anywhere on the page or
 * in time, hash the same; any other path almost surely does not. Null for
 * fewer than HASH_MIN_SAMPLES samples. (cyrb53's mixing, fed integers.)
 */
export function pathHash(events: readonly EntropyEvent[]): number | null {
  const n = events.length;
  if (n < HASH_MIN_SAMPLES) return null;
  const x0 = events[0].x, y0 = events[0].y, t0 = events[0].t;
  let h1 = 0xdeadbeef ^ n;
  let h2 = 0x41c6ce57 ^ n;
  for (let i = 0; i < n; i++) {
    const e = events[i];
    for (let k = 0; k < 3; k++) {
      const v = Math.round((k === 0 ? e.x - x0 : k === 1 ? e.y - y0 : e.t - t0) * 10) | 0;
      h1 = Math.imul(h1 ^ v, 2654435761);
      h2 = Math.imul(h2 ^ v, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
