import { RateLimitError } from "../errors.ts";

/**
 * At most `max` tasks at once, at most `queued` waiting; beyond that a task
 * is refused with 429 rather than queued without bound.
 */
export class BoundedSlots {
  #running = 0;
  #queue: (() => void)[] = [];

  constructor(readonly max: number, readonly queued: number) {}

  /** Runs `fn` in a slot, waiting for one if needed. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#running >= this.max) {
      if (this.#queue.length >= this.queued) {
        throw new RateLimitError("Too many password checks in progress; try again shortly", 1);
      }
      // A finishing task hands its slot over directly, so the count never exceeds `max`.
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await fn();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#running--;
    }
  }

  get running(): number {
    return this.#running;
  }
}
