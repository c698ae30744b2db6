/**
 * Counters of the attestation service and their Prometheus text rendering.
 * Rejection reasons appear here, for operators; callers never see them.
 */
import type { AttestStats } from "./session_store.ts";

export const REJECT_REASONS = [
  "rate_limit",
  "unknown_session",
  "expired",
  "signature",
  "hash_chain",
  "mutation_step",
  "mutation",
  "gene_commitment",
  "timestamp_drift",
  "mouse_events",
  "mouse_distance",
  "mouse_speed",
  "mouse_pauses",
  "aspect_ratio",
  "device_pixel_ratio",
  "hardware_concurrency",
  "conflict",
  "internal_error",
] as const;

export type RejectReason = typeof REJECT_REASONS[number];

export class AttestCounters {
  accepted = 0;
  sessionsCreated = 0;
  initFailures = 0;
  purged = 0;
  readonly rejected = new Map<RejectReason, number>(REJECT_REASONS.map((r) => [r, 0]));

  reject(reason: RejectReason): void {
    this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + 1);
  }

  get rejectedTotal(): number {
    let n = 0;
    for (const v of this.rejected.values()) n += v;
    return n;
  }
}

function metric(
  lines: string[],
  name: string,
  type: "gauge" | "counter",
  help: string,
  samples: [string, number][],
) {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
}

/** Prometheus text exposition (version 0.0.4) of the stats and counters. */
export function renderMetrics(stats: AttestStats, c: AttestCounters): string {
  const lines: string[] = [];
  metric(lines, "attest_sessions", "gauge", "Stored attestation sessions.", [["", stats.sessions]]);
  metric(lines, "attest_expired_sessions", "gauge", "Expired sessions not yet purged.", [[
    "",
    stats.expired_sessions,
  ]]);
  metric(
    lines,
    "attest_max_chain_length",
    "gauge",
    "Highest accepted chain length over stored sessions.",
    [[
      "",
      stats.max_chain_length,
    ]],
  );
  metric(lines, "attest_heartbeats_accepted_total", "counter", "Heartbeats accepted since start.", [
    ["", c.accepted],
  ]);
  metric(
    lines,
    "attest_heartbeats_rejected_total",
    "counter",
    "Heartbeats rejected since start, by the first failed check.",
    REJECT_REASONS.map((r) => [`{reason="${r}"}`, c.rejected.get(r) ?? 0]),
  );
  metric(lines, "attest_sessions_created_total", "counter", "Sessions created since start.", [[
    "",
    c.sessionsCreated,
  ]]);
  metric(lines, "attest_init_failures_total", "counter", "Failed session creations since start.", [[
    "",
    c.initFailures,
  ]]);
  metric(lines, "attest_sessions_purged_total", "counter", "Expired sessions purged since start.", [
    ["", c.purged],
  ]);
  return lines.join("\n") + "\n";
}
