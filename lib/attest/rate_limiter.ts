/**
 * The heartbeat rate limit: at most `max` requests per `windowMs` per
 * session id, counted over every request (accepted or not), checked before
 * the session lookup. Keys come from clients, so the table is bounded: idle
 * keys are swept, and past `maxKeys` the oldest keys are dropped.
 */
export class SlidingWindowLimiter {
  #hits = new Map<string, number[]>();
  #lastSweep = 0;

  constructor(
    readonly max = 5,
    readonly windowMs = 10_000,
    private readonly maxKeys = 200_000,
  ) {}

  /** Records a request for `key` at `now`; false when it exceeds the limit. */
  allow(key: string, now: number): boolean {
    this.#sweep(now);
    let times = this.#hits.get(key);
    if (!times) {
      if (this.#hits.size >= this.maxKeys) this.#evictOldest();
      this.#hits.set(key, times = []);
    }
    // times holds the last `max` request times, oldest first.
    const allowed = times.length < this.max || now - times[0] >= this.windowMs;
    times.push(now);
    if (times.length > this.max) times.shift();
    return allowed;
  }

  get size(): number {
    return this.#hits.size;
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < this.windowMs) return;
    this.#lastSweep = now;
    for (const [key, times] of this.#hits) {
      if (now - times[times.length - 1] >= this.windowMs) this.#hits.delete(key);
    }
  }

  #evictOldest(): void {
    // Map iteration follows insertion order: the first keys are the oldest.
    let drop = Math.max(1, Math.floor(this.maxKeys / 100));
    for (const key of this.#hits.keys()) {
      this.#hits.delete(key);
      if (--drop === 0) break;
    }
  }
}
