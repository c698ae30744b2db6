/**
 * What the system overview, the health check and the database diagnostics
 * read from the store: that it answers, a few table counts, and its journal
 * mode. Counts of other domains' tables are read here rather than through
 * their services, so the overview stays one cheap statement.
 */
import type { Store } from "../store/store.ts";

/** The counts of the overview; sessions are the live dashboard/API sessions. */
export interface SystemCounts {
  users: number;
  activeSessions: number;
  apiTokens: number;
  auditRecords: number;
}

export interface SystemRepo {
  /** Runs a trivial query; throws when the store does not answer. */
  ping(): void;
  /** Row counts for the overview; sessions expiring after `now` count as active. */
  counts(now: number): SystemCounts;
  /** The journal mode the store runs in (`wal` expected). */
  journalMode(): string | undefined;
  /** The problems `PRAGMA quick_check` reports; empty when it says ok. */
  quickCheck(): string[];
  /** Bytes in the write-ahead log file; null when there is none (in memory, or not in WAL mode). */
  walBytes(): number | null;
  /** The schema version recorded in the file. */
  schemaVersion(): number;
}

export class SqliteSystemRepo implements SystemRepo {
  constructor(private readonly store: Store) {}

  ping(): void {
    this.store.get("SELECT 1");
  }

  counts(now: number): SystemCounts {
    const r = this.store.get<
      { users: number; sessions: number; tokens: number; audit: number }
    >(
      `SELECT (SELECT count(*) FROM users) AS users,
         (SELECT count(*) FROM sessions WHERE expires_at > ?) AS sessions,
         (SELECT count(*) FROM api_tokens) AS tokens,
         (SELECT count(*) FROM audit) AS audit`,
      now,
    )!;
    return {
      users: r.users,
      activeSessions: r.sessions,
      apiTokens: r.tokens,
      auditRecords: r.audit,
    };
  }

  journalMode(): string | undefined {
    return this.store.get<{ journal_mode: string }>("PRAGMA journal_mode")?.journal_mode;
  }

  quickCheck(): string[] {
    const rows = this.store.all<{ quick_check: string }>("PRAGMA quick_check(20)");
    const lines = rows.map((r) => r.quick_check);
    return lines.length === 1 && lines[0] === "ok" ? [] : lines;
  }

  walBytes(): number | null {
    if (this.store.path === ":memory:") return null;
    try {
      return Deno.statSync(`${this.store.path}-wal`).size;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    }
  }

  schemaVersion(): number {
    return this.store.version;
  }
}
