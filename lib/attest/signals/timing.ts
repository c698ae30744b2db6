/**
 * Heartbeat timing regularity and fingerprint consistency, as pure functions
 * of a session's sums (docs/attestation_sites.md, "Signals").
 *
 * The client waits a uniformly random time between the configured minimum and
 * maximum before each heartbeat, so the intervals between a session's
 * accepted heartbeats have a standard deviation near (max − min) / √12 (plus
 * network jitter, which only adds). A bot sending on a fixed period shows
 * nearly none.
 */

/** Intervals needed before timing is judged. */
export const TIMING_MIN_INTERVALS = 5;
/** Flagged when the intervals' standard deviation is below this fraction of the uniform jitter's. */
export const TIMING_SD_FRACTION = 0.2;

/** Standard deviation of n values from their sums (population); 0 below two. */
export function standardDeviation(n: number, sum: number, sumSq: number): number {
  if (n < 2) return 0;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, sumSq / n - mean * mean));
}

/**
 * Whether `n` intervals (summed, and their squares summed) are too regular
 * for a client jittering uniformly in [minMs, maxMs]. Never with too few
 * intervals or a window too narrow (under 50 ms) to tell jitter from none.
 */
export function timingRegular(
  n: number,
  sum: number,
  sumSq: number,
  minMs: number,
  maxMs: number,
): boolean {
  const expected = (maxMs - minMs) / Math.sqrt(12);
  if (n < TIMING_MIN_INTERVALS || maxMs - minMs < 50) return false;
  return standardDeviation(n, sum, sumSq) < TIMING_SD_FRACTION * expected;
}

/**
 * What the server sees of the fingerprint, per session: heartbeats whose
 * value differs from the session's first. A device's hardwareConcurrency
 * does not change while a page is open, so any difference is inconsistent;
 * the aspect ratio changes when a window is resized and the device pixel
 * ratio when the page is zoomed or moved to another screen, so those are
 * counted and reported but do not flag.
 */
export interface FingerprintChanges {
  aspect_ratio: number;
  device_pixel_ratio: number;
  hardware_concurrency: number;
}

export function fingerprintInconsistent(c: FingerprintChanges): boolean {
  return c.hardware_concurrency > 0;
}
