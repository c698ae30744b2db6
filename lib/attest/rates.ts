/**
 * Attestation figures over time for the dashboard: the `/stats` counts plus
 * the heartbeat counters, and accepted/rejected rates per second measured
 * over fixed windows. One timer closes a window every `intervalMs` and emits
 * `AttestStats` only when a figure changed, so idle servers send nothing and
 * the dashboard never polls.
 */
import { type Clock, isoTime } from "../clock.ts";
import type { EventBus, EventMap } from "../events/bus.ts";
import type { AttestRuntime } from "./attest_runtime.ts";
import type { AttestStats } from "./session_repo.ts";
import { backgroundTick } from "../background_tick.ts";

export type AttestSnapshot = EventMap["AttestStats"];

/** Default window: short enough to feel live, long enough for a steady rate. */
export const ATTEST_RATE_WINDOW_MS = 5000;

interface Mark {
  at: number;
  accepted: number;
  rejected: number;
}

/** The figures that decide whether to emit: the time and window length change every tick. */
function figuresKey(snap: AttestSnapshot): string {
  const { time: _t, window_seconds: _w, ...figures } = snap;
  return JSON.stringify(figures);
}

export class AttestRates {
  #mark: Mark;
  #rates = { accepted: 0, rejected: 0, window: 0 };
  #lastEmitted = "";
  #timer: ReturnType<typeof setInterval> | undefined;
  #stats: AttestStats = { sessions: 0, expired_sessions: 0, max_chain_length: 0 };

  constructor(
    private readonly attest: Pick<AttestRuntime, "counters" | "stats">,
    private readonly events: EventBus,
    private readonly clock: Clock,
    readonly intervalMs = ATTEST_RATE_WINDOW_MS,
  ) {
    this.#mark = this.#read();
  }

  #read(): Mark {
    const c = this.attest.counters;
    return { at: this.clock.now(), accepted: c.accepted, rejected: c.rejectedTotal };
  }

  /** Current counts with the rates of the last closed window; changes nothing. */
  snapshot(): AttestSnapshot {
    const c = this.attest.counters;
    const byReason: Record<string, number> = {};
    for (const [reason, n] of c.rejected) if (n > 0) byReason[reason] = n;
    return {
      time: isoTime(this.clock.now()),
      ...this.#statsNow(),
      accepted: c.accepted,
      rejected: c.rejectedTotal,
      rejected_by_reason: byReason,
      accepted_per_second: this.#rates.accepted,
      rejected_per_second: this.#rates.rejected,
      window_seconds: this.#rates.window,
    };
  }

  /**
   * The `/stats` counts: read at once on SQLite; on PostgreSQL (a query) the
   * figures of the previous read, refreshed by this one.
   */
  #statsNow(): AttestStats {
    const s = this.attest.stats();
    if (!(s instanceof Promise)) return s;
    s.then((v) => (this.#stats = v), () => {});
    return this.#stats;
  }

  /** Closes the current window; emits `AttestStats` when a figure differs from the last one sent. */
  tick(): AttestSnapshot {
    const now = this.#read();
    const seconds = (now.at - this.#mark.at) / 1000;
    if (seconds > 0) {
      const rate = (n: number) => Math.round((n / seconds) * 100) / 100;
      this.#rates = {
        accepted: rate(now.accepted - this.#mark.accepted),
        rejected: rate(now.rejected - this.#mark.rejected),
        window: Math.round(seconds * 10) / 10,
      };
    }
    this.#mark = now;
    const snap = this.snapshot();
    const key = figuresKey(snap);
    if (key !== this.#lastEmitted) {
      this.#lastEmitted = key;
      this.events.emit("AttestStats", snap);
    }
    return snap;
  }

  /** Starts the window timer; it does not keep the process alive. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#mark = this.#read();
    // What the figures are now counts as sent: a server that stays idle sends nothing.
    this.#lastEmitted = figuresKey(this.snapshot());
    this.#timer = backgroundTick(() => this.tick(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
