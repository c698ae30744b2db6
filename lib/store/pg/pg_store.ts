/**
 * The PostgreSQL store (issue 27, docs/scaling.md): a connection pool opened
 * from a URL, versioned migrations applied on open under an advisory lock,
 * and SERIALIZABLE transactions re-run on serialization failures, with
 * after-commit hooks like the SQLite `Store`. No repository uses it yet.
 *
 * Isolation: SERIALIZABLE, the closest to SQLite's one-writer-at-a-time
 * (`BEGIN IMMEDIATE`): the repositories' check-then-write steps (next
 * firewall position, serial bump, "is this the last administrator") stay
 * correct without each taking its own locks. The price is that a
 * transaction may be aborted and re-run, so `fn` must only touch the
 * database (and register hooks), never the outside world.
 */
import postgres from "postgres";
import { isRetryable } from "./errors.ts";
import { type PgMigration, pgMigrations } from "./migrations/mod.ts";

export type Sql = postgres.Sql;
export type TxSql = postgres.TransactionSql;

export interface PgStoreOptions {
  url: string;
  /** Connections in the pool. */
  poolSize?: number;
  /** Server-side limit of one statement (`statement_timeout`), in ms; 0 means none. */
  statementTimeoutMs?: number;
  /** Schema steps to apply (default: every migration of lib/store/pg/migrations). */
  migrations?: PgMigration[];
  /** Attempts of a transaction that keeps losing serialization conflicts. */
  maxAttempts?: number;
}

/** A running transaction: its queries, and hooks that run once it committed. */
export interface PgTx {
  sql: TxSql;
  afterCommit(hook: () => void): void;
}

/** Transaction-scoped advisory lock key of the migration runner ("palisade" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x70616c69736164;

/**
 * int8 as a JavaScript number, as node:sqlite returns INTEGER: the stored
 * values (ms timestamps, serials, counters) stay far below 2^53.
 */
const INT8_AS_NUMBER = {
  to: 20,
  from: [20],
  serialize: (n: number | bigint) => String(n),
  parse: (s: string) => Number(s),
};

/** The client settings of the pool and of `session()`. */
function clientOptions(options: PgStoreOptions, applicationName: string) {
  return {
    connection: {
      statement_timeout: options.statementTimeoutMs ?? 5000,
      application_name: applicationName,
    },
    types: { int8: INT8_AS_NUMBER },
    onnotice: () => {},
    connect_timeout: 10,
  };
}

export class PgStore {
  readonly sql: Sql;
  readonly #maxAttempts: number;
  readonly #options: PgStoreOptions;

  private constructor(sql: Sql, options: PgStoreOptions) {
    this.sql = sql;
    this.#maxAttempts = options.maxAttempts ?? 10;
    this.#options = options;
  }

  /** Opens a pool to `url` and migrates the database. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const sql = postgres(options.url, {
      max: options.poolSize ?? 10,
      ...clientOptions(options, "palisade"),
    });
    const store = new PgStore(sql, options);
    try {
      await store.migrate(options.migrations ?? pgMigrations);
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  /**
   * Applies every migration not yet in `schema_migrations`, each in its own
   * transaction holding an advisory lock: instances starting together wait
   * for each other, and the later one finds the step recorded and skips it.
   */
  async migrate(migrations: PgMigration[]): Promise<void> {
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].version === sorted[i - 1].version) {
        throw new Error(`Duplicate migration version ${sorted[i].version}`);
      }
    }
    await this.sql.unsafe(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    ).simple().catch(async (err) => {
      // Two instances creating it at once: the loser's error is harmless if the table is there.
      if (!(await this.#hasMigrationsTable())) throw err;
    });
    for (const m of sorted) {
      await this.sql.begin(async (t) => {
        await t`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
        const done = await t`SELECT 1 FROM schema_migrations WHERE version = ${m.version}`;
        if (done.length) return;
        await t.unsafe(m.sql).simple();
        await t`INSERT INTO schema_migrations (version, name, applied_at)
                VALUES (${m.version}, ${m.name}, ${Date.now()})`;
      });
    }
  }

  async #hasMigrationsTable(): Promise<boolean> {
    const rows = await this.sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`;
    return rows[0]?.present === true;
  }

  /** The highest applied schema version (0 before any). */
  async version(): Promise<number> {
    const rows = await this.sql`SELECT coalesce(max(version), 0) AS v FROM schema_migrations`;
    return Number(rows[0].v);
  }

  /**
   * Runs `fn` in a SERIALIZABLE transaction and returns its result; a throw
   * rolls back. A serialization failure or deadlock re-runs `fn` from the
   * start (at most `maxAttempts` times, with a short random pause); hooks
   * registered by a failed attempt are dropped, those of the committed one
   * run after the commit, in order.
   */
  async tx<T>(fn: (tx: PgTx) => Promise<T>): Promise<T> {
    for (let attempt = 1;; attempt++) {
      const hooks: (() => void)[] = [];
      try {
        const result = await this.sql.begin(
          "isolation level serializable",
          (sql) => fn({ sql, afterCommit: (hook) => hooks.push(hook) }),
        );
        for (const hook of hooks) hook();
        return result as T;
      } catch (err) {
        if (!isRetryable(err) || attempt >= this.#maxAttempts) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  }

  /**
   * A client of its own with one connection, outside the pool, named
   * `palisade-<purpose>` in `pg_stat_activity`: for state that lives as long
   * as a session (advisory locks held between statements). It is never
   * recycled on age (the pool's connections are, which would drop such
   * state); when it dies anyway (terminated, network) the next statement
   * opens a new session, without that state. The caller ends it.
   */
  session(purpose: string): Sql {
    return postgres(this.#options.url, {
      max: 1,
      max_lifetime: null,
      ...clientOptions(this.#options, `palisade-${purpose}`),
    });
  }

  /** Closes the pool, waiting up to `timeoutS` for running queries. */
  async close(timeoutS = 5): Promise<void> {
    await this.sql.end({ timeout: timeoutS });
  }
}
