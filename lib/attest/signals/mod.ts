/**
 * Automation signals of attestation sessions (docs/attestation_sites.md,
 * "Signals"). Callers (siteverify, the dashboard) read a session's signals
 * with `signalsOf(sessionId)` on the attestation service's `signals`, or
 * through the service's own `signalsOf`.
 */
export {
  addTally,
  coefficientOfVariation,
  COLLINEAR_TOL_PX,
  emptyTally,
  HASH_MIN_SAMPLES,
  MIN_SEGMENT_PX,
  pathHash,
  pathRegular,
  type PathTally,
  REGULAR_MIN_FRACTION,
  REGULAR_MIN_TRIPLES,
  SPACING_TOL_PX,
  SPACING_TOL_REL,
  tallyPath,
} from "./path.ts";
export {
  type FingerprintChanges,
  fingerprintInconsistent,
  standardDeviation,
  TIMING_MIN_INTERVALS,
  TIMING_SD_FRACTION,
  timingRegular,
} from "./timing.ts";
export {
  type RecentSession,
  REPLAY_WINDOW_MS,
  SessionSignals,
  type SessionSignalsView,
  type SignalFlag,
  signalsView,
} from "./signals.ts";
export {
  type SignalObservation,
  type SignalRepo,
  type SignalRow,
  SqliteSignalRepo,
} from "./signal_repo.ts";
