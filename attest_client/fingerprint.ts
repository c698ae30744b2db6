/**
 * The heartbeat's device fingerprint, exactly as specs/attestation.md states
 * it: aspectRatio is screen width / height with 10 fractional digits,
 * devicePixelRatio is the ratio as a decimal string, hardwareConcurrency is
 * the reported core count, or 1 when the browser reports none.
 */
import type { Fingerprint } from "../lib/attest/canonical.ts";

/** The parts of `window` the fingerprint reads, so tests can pass their own. */
export interface FingerprintSource {
  screen?: { width: number; height: number };
  innerWidth?: number;
  innerHeight?: number;
  devicePixelRatio?: number;
  navigator?: { hardwareConcurrency?: number };
}

const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** A decimal string without exponent notation (String(1e-7) would be "1e-7"). */
function decimal(v: number): string {
  const s = String(v);
  return /e/i.test(s) ? v.toFixed(20).replace(/\.?0+$/, "") : s;
}

/** Reads the fingerprint from `source` (the page's window by default). */
export function fingerprint(
  source: FingerprintSource = globalThis as FingerprintSource,
): Fingerprint {
  let width = source.screen?.width;
  let height = source.screen?.height;
  // Some embedded browsers report a 0×0 screen; the viewport is the nearest honest stand-in.
  if (!positive(width) || !positive(height)) {
    width = source.innerWidth;
    height = source.innerHeight;
  }
  const dpr = source.devicePixelRatio;
  const cores = source.navigator?.hardwareConcurrency;
  return {
    aspectRatio: positive(width) && positive(height) ? (width / height).toFixed(10) : "NaN",
    devicePixelRatio: positive(dpr) ? decimal(dpr) : "1",
    hardwareConcurrency: typeof cores === "number" && Number.isInteger(cores) && cores > 0
      ? cores
      : 1,
  };
}
