/**
 * The behavioural checks of a heartbeat (spec table, orders 9–11), as pure
 * functions returning the first failed check's reason or null.
 *
 * Mouse path (docs/attestation.md, "Mouse checks"): samples are taken in the
 * order sent. Distance is the sum of the straight-line distances between
 * consecutive samples; elapsed time is the last sample's `t` minus the
 * first's. A pause is a gap of at least 100 ms between consecutive samples.
 */
import type { EntropyEvent, Fingerprint } from "./canonical.ts";

export const DRIFT_MAX_MS = 30_000;
export const MIN_EVENTS = 3;
export const MIN_DISTANCE_PX = 10;
export const MAX_SPEED_PX_PER_MS = 2;
export const PAUSE_MS = 100;
export const MIN_PAUSES = 1;

export type BehaviourReason =
  | "timestamp_drift"
  | "mouse_events"
  | "mouse_distance"
  | "mouse_speed"
  | "mouse_pauses"
  | "aspect_ratio"
  | "device_pixel_ratio"
  | "hardware_concurrency";

/** Check 9: the client clock within 30 s of ours. */
export function checkDrift(timestamp: number, now: number): BehaviourReason | null {
  return Math.abs(now - timestamp) > DRIFT_MAX_MS ? "timestamp_drift" : null;
}

/** Path statistics of a list of samples. */
export function mouseStats(
  events: EntropyEvent[],
): { distance: number; elapsed: number; pauses: number } {
  let distance = 0;
  let pauses = 0;
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1];
    const b = events[i];
    distance += Math.hypot(b.x - a.x, b.y - a.y);
    if (b.t - a.t >= PAUSE_MS) pauses++;
  }
  const elapsed = events.length ? events[events.length - 1].t - events[0].t : 0;
  return { distance, elapsed, pauses };
}

/** Check 10: enough samples, enough movement, not too fast (zero elapsed time fails), a pause. */
export function checkMouse(events: EntropyEvent[]): BehaviourReason | null {
  if (events.length < MIN_EVENTS) return "mouse_events";
  const { distance, elapsed, pauses } = mouseStats(events);
  if (!(distance >= MIN_DISTANCE_PX)) return "mouse_distance";
  if (!(elapsed > 0) || distance / elapsed > MAX_SPEED_PX_PER_MS) return "mouse_speed";
  if (pauses < MIN_PAUSES) return "mouse_pauses";
  return null;
}

/** Check 11: aspect ratio 0.5–3.0, device pixel ratio in (0, 5], hardware concurrency not 0. */
export function checkFingerprint(fp: Fingerprint): BehaviourReason | null {
  const aspect = Number(fp.aspectRatio);
  if (!(aspect >= 0.5 && aspect <= 3.0)) return "aspect_ratio";
  const dpr = Number(fp.devicePixelRatio);
  if (!(dpr > 0 && dpr <= 5.0)) return "device_pixel_ratio";
  if (fp.hardwareConcurrency === 0) return "hardware_concurrency";
  return null;
}
