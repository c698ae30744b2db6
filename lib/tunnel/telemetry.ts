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

  constructor(private readonly driver: HostDriver, readonly maxAgeMs = 1000) {}

  /** Live state no older than `maxAgeMs` (0 forces a read); null when the host layer is off. */
  state(maxAgeMs = this.maxAgeMs): Promise<LiveState | null> {
    if (!this.driver.active) return Promise.resolve(null);
    if (this.#last && Date.now() - this.#last.readAt <= maxAgeMs && maxAgeMs > 0) {
      return Promise.resolve(this.#last);
    }
    if (!this.#inflight) {
      this.#inflight = this.driver.read().then((s) => {
        this.#last = s;
        return s;
      }).finally(() => {
        this.#inflight = null;
      });
    }
    return this.#inflight;
  }

  /** Forgets the cached read, e.g. after a change was applied. */
  invalidate(): void {
    this.#last = null;
  }
}
