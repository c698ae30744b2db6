/**
 * Shared reads of live host state. Listings, status and the periodic pass
 * all take the state from here: one `wg show all dump` and one `ip` read
 * serve every caller within `maxAgeMs`, and callers arriving during a read
 * wait for that read instead of starting another.
 */
import type { HostDriver, LiveState } from "../host/driver.ts";

export class Telemetry {
  #last: LiveState | null = null;
  #inflight: Promise<LiveState | null> | null = null;
  /** Bumped by invalidate(): a read begun before a change must not refill the cache after it. */
  #generation = 0;

  constructor(private readonly driver: HostDriver, readonly maxAgeMs = 1000) {}

  /**
   * Live state no older than `maxAgeMs`; null when the host layer is off.
   * `maxAgeMs = 0` always starts its own read (never joins one begun before a
   * change), which reconcile and the periodic pass rely on.
   */
  state(maxAgeMs = this.maxAgeMs): Promise<LiveState | null> {
    if (!this.driver.active) return Promise.resolve(null);
    if (maxAgeMs > 0) {
      if (this.#last && Date.now() - this.#last.readAt <= maxAgeMs) {
        return Promise.resolve(this.#last);
      }
      if (this.#inflight) return this.#inflight;
    }
    const generation = this.#generation;
    const read: Promise<LiveState | null> = this.driver.read().then((s) => {
      const current = generation === this.#generation;
      if (s && current && (!this.#last || s.readAt >= this.#last.readAt)) this.#last = s;
      return s;
    }).finally(() => {
      if (this.#inflight === read) this.#inflight = null;
    });
    this.#inflight = read;
    return read;
  }

  /** Forgets the cached read and any read in flight, e.g. after a change was applied. */
  invalidate(): void {
    this.#generation++;
    this.#last = null;
    this.#inflight = null;
  }
}
