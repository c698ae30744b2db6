/**
 * The `login_failures` table: one row per failed attempt, counted per
 * username (in any letter case) and per client address.
 */
import type { Store } from "../store/store.ts";

/** Failures within a window: how many, and when the oldest happened (ms). */
export interface FailureCount {
  count: number;
  oldest: number | null;
}

export interface LoginAttemptRepo {
  /** Failures for `username` after `since`. */
  failuresOfUsername(username: string, since: number): FailureCount;
  /** Failures from `address` after `since`. */
  failuresOfAddress(address: string, since: number): FailureCount;
  add(username: string, address: string, at: number): void;
  /** Deletes the failures at or before `cutoff`. */
  deleteUpTo(cutoff: number): void;
  /** Deletes every failure of `username`. */
  clearUsername(username: string): void;
}

type CountRow = { n: number; oldest: number | null };

export class SqliteLoginAttemptRepo implements LoginAttemptRepo {
  constructor(private readonly store: Store) {}

  failuresOfUsername(username: string, since: number): FailureCount {
    const r = this.store.get<CountRow>(
      "SELECT count(*) AS n, min(at) AS oldest FROM login_failures WHERE username = ? AND at > ?",
      username,
      since,
    )!;
    return { count: r.n, oldest: r.oldest };
  }

  failuresOfAddress(address: string, since: number): FailureCount {
    const r = this.store.get<CountRow>(
      "SELECT count(*) AS n, min(at) AS oldest FROM login_failures WHERE address = ? AND at > ?",
      address,
      since,
    )!;
    return { count: r.n, oldest: r.oldest };
  }

  add(username: string, address: string, at: number): void {
    this.store.run(
      "INSERT INTO login_failures (username, address, at) VALUES (?, ?, ?)",
      username,
      address,
      at,
    );
  }

  deleteUpTo(cutoff: number): void {
    this.store.run("DELETE FROM login_failures WHERE at <= ?", cutoff);
  }

  clearUsername(username: string): void {
    this.store.run("DELETE FROM login_failures WHERE username = ?", username);
  }
}
