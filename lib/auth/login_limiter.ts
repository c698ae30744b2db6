/**
 * The login throttle. A guessing attacker must not be able to lock the
 * rightful user out, so nothing here refuses a username as such:
 *
 * - Refusals (429) are keyed by where the attempt comes from: the client
 *   address across all usernames, and the pair (address, username). Past its
 *   free failures a key must wait after each failure, the wait doubling with
 *   every further failure up to a cap. The password is not checked while a
 *   key waits, so the wait holds even for the right password from that
 *   address; another address is not affected.
 * - A username under attack from many addresses is only slowed down: past a
 *   number of failures from any address, every attempt on it sleeps a
 *   growing, bounded time before the password is checked.
 *
 * Failures live in the store, so a restart does not reset a wait, and are
 * deleted once older than the window. Attempts still being verified are
 * counted in memory as pending failures, so parallel guesses cannot slip past
 * a limit. Settings and defaults: lib/config/login_options.ts.
 */
import type { Clock } from "../clock.ts";
import type { LoginThrottle } from "../config/types.ts";
import { RateLimitError } from "../errors.ts";
import { addressKey } from "../net/client_address.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { FailureCount, LoginAttemptRepo } from "./login_attempt_repo.ts";

/** Waits `ms` milliseconds. */
export type Sleep = (ms: number) => Promise<void>;

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait after `failures` failures of a key allowed `free` of them (0: none). */
export function backoffMs(failures: number, free: number, o: LoginThrottle): number {
  if (failures < free) return 0;
  // Past 2^40 every sensible cap is reached; the bound keeps the power finite.
  return Math.min(o.backoffMaxMs, o.backoffMs * 2 ** Math.min(failures - free, 40));
}

/** The slow-down of every attempt on a username that failed `failures` times from anywhere. */
export function slowdownMs(failures: number, o: LoginThrottle): number {
  if (failures < o.slowdownAfter) return 0;
  return Math.min(o.slowdownMaxMs, o.slowdownStepMs * (failures - o.slowdownAfter + 1));
}

/** One key the refusals count under. */
interface Scope {
  slot: string;
  free: number;
  failures(): Promise<FailureCount>;
}

/** How often expired failures are deleted (ms). */
const PRUNE_EVERY_MS = 60_000;

export class LoginLimiter {
  #inFlight = new Map<string, number>();
  #prunedAt = -Infinity;

  constructor(
    private readonly repo: LoginAttemptRepo,
    private readonly transactor: AsyncTransactor,
    private readonly clock: Clock,
    private readonly options: LoginThrottle,
    private readonly sleep: Sleep = realSleep,
  ) {}

  /**
   * Reserves an attempt from `address` on `username`; throws RateLimitError
   * while the address, or the pair, must wait. The returned function releases
   * the reservation.
   */
  async begin(username: string, address: string): Promise<() => void> {
    const now = this.clock.now();
    const since = now - this.options.windowMs;
    const key = addressKey(address);
    const scopes: Scope[] = [
      {
        slot: `a:${key}`,
        free: this.options.addressFreeFailures,
        failures: () => this.repo.failuresOfAddress(key, since),
      },
      {
        slot: `p:${key}\n${username.toLowerCase()}`,
        free: this.options.freeFailures,
        failures: () => this.repo.failuresOfPair(key, username, since),
      },
    ];
    // The reservation is taken before the failures are read, so attempts started while the
    // read is under way count this one; each counts the attempts reserved before it.
    const pending = scopes.map((s) => this.#inFlight.get(s.slot) ?? 0);
    const release = this.#reserve(scopes.map((s) => s.slot));
    let waitMs = 0;
    try {
      for (const [i, scope] of scopes.entries()) {
        waitMs = Math.max(waitMs, await this.#remaining(scope, pending[i], now));
      }
    } catch (err) {
      release();
      throw err;
    }
    if (waitMs > 0) {
      release();
      throw new RateLimitError(
        "Too many failed logins from this address; try again later",
        Math.max(1, Math.ceil(waitMs / 1000)),
        { code: "login_throttled" },
      );
    }
    return release;
  }

  /** Counts an attempt under each of `slots`; the returned function takes it back once. */
  #reserve(slots: string[]): () => void {
    for (const slot of slots) this.#inFlight.set(slot, (this.#inFlight.get(slot) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const slot of slots) {
        const n = (this.#inFlight.get(slot) ?? 1) - 1;
        if (n <= 0) this.#inFlight.delete(slot);
        else this.#inFlight.set(slot, n);
      }
    };
  }

  /** How long `scope` must still wait at `now` with `pending` attempts before this one (ms). */
  async #remaining(scope: Scope, pending: number, now: number): Promise<number> {
    const f = await scope.failures();
    const wait = backoffMs(f.count + pending, scope.free, this.options);
    if (wait === 0) return 0;
    // An attempt still being verified is a failure happening now, as far as anyone knows.
    const last = pending > 0 || f.newest === null ? now : f.newest;
    return Math.max(0, last + wait - now);
  }

  /** Sleeps the slow-down of `username` (never refuses); call before checking its password. */
  async slowDown(username: string): Promise<void> {
    const since = this.clock.now() - this.options.windowMs;
    const ms = slowdownMs(await this.repo.countOfUsername(username, since), this.options);
    if (ms > 0) await this.sleep(ms);
  }

  /** Records a failed attempt; at most once a minute also drops failures older than the window. */
  async fail(username: string, address: string): Promise<void> {
    const now = this.clock.now();
    // The deletion scans the table by time, which no index covers; under a spread-out attack
    // the table holds many rows, so it runs once a minute rather than with every failure.
    const prune = now - this.#prunedAt >= PRUNE_EVERY_MS;
    await this.transactor.tx(async () => {
      if (prune) await this.repo.deleteUpTo(now - this.options.windowMs);
      await this.repo.add(username, addressKey(address), now);
    });
    if (prune) this.#prunedAt = now;
  }

  /**
   * Clears the failures of `username` from `address` after a success there.
   * Failures from other addresses stay: a login by the rightful user must not
   * reset an attacker's wait.
   */
  succeed(username: string, address: string): Promise<void> {
    return this.repo.clearPair(addressKey(address), username);
  }
}
