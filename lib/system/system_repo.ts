/**
 * What the system overview, the health check and the database diagnostics
 * read from the store: that it answers, a few table counts, the schema
 * version, and the engine's own health figures. Counts of other domains'
 * tables are read here rather than through their services, so the overview
 * stays one cheap statement. Ported to both engines: the PostgreSQL twin is
 * `pg_system_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";

/** The counts of the overview; sessions are the live dashboard/API sessions. */
export interface SystemCounts {
  users: number;
  activeSessions: number;
  apiTokens: number;
  auditRecords: number;
}

/** What only a SQLite file can tell (synchronous: read from the one connection or the file). */
export interface SqliteFileProbe {
  engine: "sqlite";
  /** The journal mode the store runs in (`wal` expected). */
  journalMode(): string | undefined;
  /** The problems `PRAGMA quick_check` reports; empty when it says ok. */
  quickCheck(): string[];
  /** Bytes in the write-ahead log file; null when there is none (in memory, or not in WAL mode). */
  walBytes(): number | null;
}

/** What a PostgreSQL server tells about itself. */
export interface PgServerProbe {
  engine: "postgres";
  /** Connections open to the server, and the most it accepts. */
  connections(): Promise<{ open: number; max: number }>;
  /** `server_version` of the server. */
  serverVersion(): Promise<string>;
}

export interface SystemRepo {
  /** The engine's own figures for the database diagnostics. */
  readonly probe: SqliteFileProbe | PgServerProbe;
  /** Runs a trivial query; rejects when the store does not answer. */
  ping(): Promise<void>;
  /** Row counts for the overview; sessions expiring after `now` count as active. */
  counts(now: number): Promise<SystemCounts>;
  /** The schema version recorded in the store. */
  schemaVersion(): Promise<number>;
}

export interface CountRow {
  users: number;
  sessions: number;
  tokens: number;
  audit: number;
}

export const toCounts = (r: CountRow): SystemCounts => ({
  users: Number(r.users),
  activeSessions: Number(r.sessions),
  apiTokens: Number(r.tokens),
  auditRecords: Number(r.audit),
});

export class SqliteSystemRepo implements SystemRepo {
  readonly probe: SqliteFileProbe;

  constructor(private readonly db: SqliteAsync) {
    const store = db.store;
    this.probe = {
      engine: "sqlite",
      journalMode: () => store.get<{ journal_mode: string }>("PRAGMA journal_mode")?.journal_mode,
      quickCheck: () => {
        const rows = store.all<{ quick_check: string }>("PRAGMA quick_check(20)");
        const lines = rows.map((r) => r.quick_check);
        return lines.length === 1 && lines[0] === "ok" ? [] : lines;
      },
      walBytes: () => {
        if (store.path === ":memory:") return null;
        try {
          return Deno.statSync(`${store.path}-wal`).size;
        } catch (err) {
          if (err instanceof Deno.errors.NotFound) return null;
          throw err;
        }
      },
    };
  }

  ping(): Promise<void> {
    return this.db.run((store) => void store.get("SELECT 1"));
  }

  counts(now: number): Promise<SystemCounts> {
    return this.db.run((store) =>
      toCounts(
        store.get<CountRow>(
          `SELECT (SELECT count(*) FROM users) AS users,
         (SELECT count(*) FROM sessions WHERE expires_at > ?) AS sessions,
         (SELECT count(*) FROM api_tokens) AS tokens,
         (SELECT count(*) FROM audit) AS audit`,
          now,
        )!,
      )
    );
  }

  schemaVersion(): Promise<number> {
    return Promise.resolve(this.db.store.version);
  }
}
