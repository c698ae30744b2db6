/**
 * GET /diagnostics/attestation: the serving threads are all alive, the
 * session figures, and the share of heartbeats rejected in the last rate
 * window (lib/attest/rates.ts). The listener (server/) tells `AttestThreadWatch`
 * how to count its threads; with PALISADE_ATTEST_WORKERS=0 the main thread
 * serves and there are none to count.
 */
import { type Check, check, type SubsystemReport, worstStatus } from "../system/diagnostics.ts";
import type { AttestSnapshot } from "./rates.ts";

export interface AttestThreadStatus {
  configured: number;
  serving: number;
  /** Threads started in place of one that died since start. */
  replaced: number;
}

/** Filled in by the attestation listener when it starts its threads. */
export class AttestThreadWatch {
  status: (() => AttestThreadStatus) | null = null;
}

/** Rejections at or above this share of the last window's heartbeats warn. */
export const REJECTED_SHARE_WARN = 0.5;

function threadsCheck(watch: AttestThreadWatch): Check {
  const s = watch.status?.();
  if (!s) return check("threads", "ok", "Served by the main thread (no verifier threads)");
  const details = { ...s };
  if (s.serving === 0) return check("threads", "fail", "No attestation thread is serving", details);
  if (s.serving < s.configured) {
    return check(
      "threads",
      "warn",
      `${s.serving} of ${s.configured} attestation threads serving; the others are being replaced`,
      details,
    );
  }
  if (s.replaced > 0) {
    return check(
      "threads",
      "warn",
      `All ${s.configured} threads serving; ${s.replaced} were replaced after failing since start`,
      details,
    );
  }
  return check("threads", "ok", `All ${s.configured} attestation threads serving`, details);
}

function rejectionCheck(snap: AttestSnapshot): Check {
  const total = snap.accepted_per_second + snap.rejected_per_second;
  const share = total > 0 ? snap.rejected_per_second / total : 0;
  const details = {
    accepted_per_second: snap.accepted_per_second,
    rejected_per_second: snap.rejected_per_second,
    rejected_share: share,
    window_seconds: snap.window_seconds,
    accepted: snap.accepted,
    rejected: snap.rejected,
    rejected_by_reason: snap.rejected_by_reason,
  };
  const pct = `${Math.round(share * 100)}%`;
  return share >= REJECTED_SHARE_WARN
    ? check("rejections", "warn", `${pct} of heartbeats rejected in the last window`, details)
    : check("rejections", "ok", `${pct} of heartbeats rejected in the last window`, details);
}

export function attestDiagnostics(watch: AttestThreadWatch, snap: AttestSnapshot): SubsystemReport {
  const checks = [
    threadsCheck(watch),
    check("sessions", "ok", `${snap.sessions} session(s), ${snap.expired_sessions} expired`, {
      sessions: snap.sessions,
      expired_sessions: snap.expired_sessions,
      max_chain_length: snap.max_chain_length,
    }),
    rejectionCheck(snap),
  ];
  return { subsystem: "attestation", status: worstStatus(checks), checks };
}
