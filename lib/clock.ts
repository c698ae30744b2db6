/** A source of the current time, injected so tests can move time by hand. */
export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests of expiry and limits. */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

/** ISO 8601 UTC string of a millisecond timestamp. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
