/**
 * Counters of the attestation service and their Prometheus text rendering.
 * Rejection reasons appear here, for operators; callers never see them.
 */
import type { AttestStats } from "./session_repo.ts";

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

const FIELDS = [
  "accepted",
  "sessionsCreated",
  "initFailures",
  "purged",
  ...REJECT_REASONS,
] as const;
type Field = typeof FIELDS[number];
const INDEX = new Map<Field, number>(FIELDS.map((f, i) => [f, i]));

/** What the counters are made of: pass it to another thread to count into the same figures. */
export interface CounterTable {
  buffer: SharedArrayBuffer;
  rows: number;
}

/**
 * Counters of the attestation service, shared by the threads serving the
 * listener: each thread adds to its own row of a SharedArrayBuffer (one
 * writer per row, so no atomics), and reading sums the rows.
 */
export class AttestCounters {
  readonly table: CounterTable;
  readonly #cells: Float64Array;
  readonly #row: number;

  /** `rows` threads may count (`row` is this one's), or a view of another thread's table. */
  constructor(table: CounterTable | number = 1, row = 0) {
    if (typeof table === "number") {
      table = { buffer: new SharedArrayBuffer(table * FIELDS.length * 8), rows: table };
    }
    if (!(row >= 0 && row < table.rows)) throw new RangeError(`No counter row ${row}`);
    this.table = table;
    this.#cells = new Float64Array(table.buffer);
    this.#row = row;
  }

  #sum(field: Field): number {
    const i = INDEX.get(field)!;
    let n = 0;
    for (let r = 0; r < this.table.rows; r++) n += this.#cells[r * FIELDS.length + i];
    return n;
  }

  #add(field: Field, n: number): void {
    this.#cells[this.#row * FIELDS.length + INDEX.get(field)!] += n;
  }

  /** Makes the total `value` (for tests and figures set by hand). */
  #set(field: Field, value: number): void {
    this.#add(field, value - this.#sum(field));
  }

  get accepted(): number {
    return this.#sum("accepted");
  }
  set accepted(v: number) {
    this.#set("accepted", v);
  }
  get sessionsCreated(): number {
    return this.#sum("sessionsCreated");
  }
  set sessionsCreated(v: number) {
    this.#set("sessionsCreated", v);
  }
  get initFailures(): number {
    return this.#sum("initFailures");
  }
  set initFailures(v: number) {
    this.#set("initFailures", v);
  }
  get purged(): number {
    return this.#sum("purged");
  }
  set purged(v: number) {
    this.#set("purged", v);
  }

  /** Adds to a counter (the hot path: no sum over the rows). */
  add(field: "accepted" | "sessionsCreated" | "initFailures" | "purged", n = 1): void {
    this.#add(field, n);
  }

  reject(reason: RejectReason): void {
    this.#add(reason, 1);
  }

  /** Rejections by reason, every reason present. */
  get rejected(): ReadonlyMap<RejectReason, number> {
    return new Map(REJECT_REASONS.map((r) => [r, this.#sum(r)]));
  }

  get rejectedTotal(): number {
    let n = 0;
    for (const r of REJECT_REASONS) n += this.#sum(r);
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
