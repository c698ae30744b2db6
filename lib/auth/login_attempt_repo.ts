/**
 * A login-failure table: one row per failed attempt, with the username
 * (compared in any letter case) and the client's address key
 * (lib/net/client_address.ts `addressKey`). `login_failures` counts the admin
 * listener's logins (API and dashboard), `dns_login_failures` the DNS API's:
 * each login has its own throttle. Ported to both engines
 * (docs/architecture.md, "Repositories"): the PostgreSQL twin is
 * `pg_login_attempt_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** Failures within a window: how many, and when the newest happened (ms). */
export interface FailureCount {
  count: number;
  newest: number | null;
}

export interface LoginAttemptRepo {
  /** Failures from `address` after `since`, for any username. */
  failuresOfAddress(address: string, since: number): Promise<FailureCount>;
  /** Failures from `address` for `username` (any letter case) after `since`. */
  failuresOfPair(address: string, username: string, since: number): Promise<FailureCount>;
  /** How many failures `username` (any letter case) had after `since`, from any address. */
  countOfUsername(username: string, since: number): Promise<number>;
  add(username: string, address: string, at: number): Promise<void>;
  /** Deletes the failures at or before `cutoff`. */
  deleteUpTo(cutoff: number): Promise<void>;
  /** Deletes the failures of `username` (any letter case) from `address`. */
  clearPair(address: string, username: string): Promise<void>;
}

/** A count row as both engines return it. */
export type CountRow = { n: number; newest: number | null };

/** The tables a throttle may count in; a closed list, since the name goes into the SQL text. */
export type LoginFailureTable = "login_failures" | "dns_login_failures";

export class SqliteLoginAttemptRepo implements LoginAttemptRepo {
  constructor(
    private readonly db: SqliteAsync,
    private readonly table: LoginFailureTable = "login_failures",
  ) {}

  failuresOfAddress(address: string, since: number): Promise<FailureCount> {
    return this.db.run((store) => {
      const r = store.get<CountRow>(
        `SELECT count(*) AS n, max(at) AS newest FROM ${this.table} WHERE address = ? AND at > ?`,
        address,
        since,
      )!;
      return { count: r.n, newest: r.newest };
    });
  }

  failuresOfPair(address: string, username: string, since: number): Promise<FailureCount> {
    return this.db.run((store) => {
      const r = store.get<CountRow>(
        `SELECT count(*) AS n, max(at) AS newest FROM ${this.table}
         WHERE address = ? AND username = ? AND at > ?`,
        address,
        username,
        since,
      )!;
      return { count: r.n, newest: r.newest };
    });
  }

  countOfUsername(username: string, since: number): Promise<number> {
    return this.db.run((store) =>
      store.get<{ n: number }>(
        `SELECT count(*) AS n FROM ${this.table} WHERE username = ? AND at > ?`,
        username,
        since,
      )!.n
    );
  }

  add(username: string, address: string, at: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO ${this.table} (username, address, at) VALUES (?, ?, ?)`,
        username,
        address,
        at,
      );
    });
  }

  deleteUpTo(cutoff: number): Promise<void> {
    return this.db.run((store) => {
      store.run(`DELETE FROM ${this.table} WHERE at <= ?`, cutoff);
    });
  }

  clearPair(address: string, username: string): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `DELETE FROM ${this.table} WHERE address = ? AND username = ?`,
        address,
        username,
      );
    });
  }
}
