/**
 * Brute-force limit for logins: after 5 failures within 15 minutes for a
 * username or for a client address, further attempts get 429 without the
 * password being checked. Failures live in the store, so a restart does not
 * reset the count; attempts still being verified are counted in memory, so
 * parallel guesses cannot slip past the limit.
 */
import type { Clock } from "../clock.ts";
import { RateLimitError } from "../errors.ts";
import type { Transactor } from "../store/transactor.ts";
import type { FailureCount, LoginAttemptRepo } from "./login_attempt_repo.ts";

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_MAX_FAILURES = 5;

export class LoginLimiter {
  #inFlight = new Map<string, number>();

  constructor(
    private readonly repo: LoginAttemptRepo,
    private readonly transactor: Transactor,
    private readonly clock: Clock,
  ) {}

  /**
   * Reserves an attempt; throws RateLimitError when the limit is reached.
   * The returned function releases the reservation.
   */
  begin(username: string, address: string): () => void {
    const since = this.clock.now() - LOGIN_WINDOW_MS;
    const keys = [`u:${username.toLowerCase()}`, `a:${address}`];
    const checks: [() => FailureCount, string][] = [
      [() => this.repo.failuresOfUsername(username, since), keys[0]],
      [() => this.repo.failuresOfAddress(address, since), keys[1]],
    ];
    for (const [failures, key] of checks) {
      const f = failures();
      if (f.count + (this.#inFlight.get(key) ?? 0) >= LOGIN_MAX_FAILURES) {
        const retry = f.oldest === null
          ? 60
          : Math.max(1, Math.ceil((f.oldest + LOGIN_WINDOW_MS - this.clock.now()) / 1000));
        throw new RateLimitError("Too many failed logins; try again later", retry);
      }
    }
    for (const key of keys) this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const n = (this.#inFlight.get(key) ?? 1) - 1;
        if (n <= 0) this.#inFlight.delete(key);
        else this.#inFlight.set(key, n);
      }
    };
  }

  /** Records a failed attempt and drops rows older than the window. */
  fail(username: string, address: string): void {
    const now = this.clock.now();
    this.transactor.tx(() => {
      this.repo.deleteUpTo(now - LOGIN_WINDOW_MS);
      this.repo.add(username, address, now);
    });
  }

  /** Clears a username's failures after a successful login (the address keeps its count). */
  succeed(username: string): void {
    this.repo.clearUsername(username);
  }
}
