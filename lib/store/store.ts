/**
 * The SQLite store: one `node:sqlite` connection per process (and per
 * attestation thread), WAL mode, foreign keys on, a busy timeout, versioned
 * migrations applied on open, and transactions with after-commit hooks so
 * that events and audit fan-out only happen for changes that really landed.
 * Page and WAL sizes are SQLite's own unless the opener passes a tuning (the
 * attestation workload does: lib/attest/store_tuning.ts).
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { migrations as allMigrations } from "./migrations/mod.ts";
import type { Transactor } from "./transactor.ts";

/** One schema step. `version` values are unique and applied in ascending order. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Page, cache and WAL settings for a workload that wants other than SQLite's defaults. */
export interface StoreTuning {
  /** Bytes per page; only takes effect when the file is created. */
  pageSize?: number;
  /** WAL pages after which a commit checkpoints (SQLite: 1000). */
  walAutocheckpointPages?: number;
  /** Bytes the WAL is truncated back to after a checkpoint. */
  journalSizeLimitBytes?: number;
  /** KiB of page cache per connection. */
  cacheSizeKib?: number;
}

export interface StoreOptions {
  /** The schema steps to apply (default: every migration of lib/store/migrations). */
  migrations?: Migration[];
  tuning?: StoreTuning;
}

export type Row = Record<string, unknown>;

/** What `Store.begin()` opened, for `Store.finish()`. */
export interface StoreMark {
  readonly outer: boolean;
  readonly sp: string;
  readonly hooks: number;
}
export type Params = SQLInputValue[];

/** SQLite error codes surfaced as `errcode` by node:sqlite. */
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;

/**
 * True when `err` is a UNIQUE or PRIMARY KEY violation, by SQLite's extended
 * result code (statements carry it; `exec()` errors do not, so repositories
 * write through statements). Which constraint failed is not in the code:
 * a repository that must name the field checks before it writes.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { errcode?: number })?.errcode;
  return code === SQLITE_CONSTRAINT_UNIQUE || code === SQLITE_CONSTRAINT_PRIMARYKEY;
}

export class Store implements Transactor {
  readonly db: DatabaseSync;
  readonly path: string;
  #statements = new Map<string, StatementSync>();
  #depth = 0;
  #afterCommit: (() => void)[] = [];
  #guard: (() => void) | null = null;

  private constructor(path: string, tuning: StoreTuning) {
    this.path = path;
    this.db = new DatabaseSync(path);
    // The file holds WireGuard private keys, password hashes and the JWT secret:
    // owner only. SQLite gives the -wal and -shm files the database file's mode,
    // so this comes before journal_mode creates them.
    if (path !== ":memory:") Deno.chmodSync(path, 0o600);
    this.db.exec("PRAGMA busy_timeout = 5000");
    // Before journal_mode: the page size of a WAL database can no longer change.
    if (tuning.pageSize) this.#pragma("page_size", tuning.pageSize);
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec("PRAGMA synchronous = NORMAL");
    this.db.exec("PRAGMA foreign_keys = ON");
    if (tuning.walAutocheckpointPages) {
      this.#pragma("wal_autocheckpoint", tuning.walAutocheckpointPages);
    }
    if (tuning.journalSizeLimitBytes) {
      this.#pragma("journal_size_limit", tuning.journalSizeLimitBytes);
    }
    if (tuning.cacheSizeKib) this.#pragma("cache_size", -tuning.cacheSizeKib);
  }

  /** Sets a pragma to an integer (pragmas take no bound parameters; the value is ours). */
  #pragma(name: string, value: number): void {
    this.db.exec(`PRAGMA ${name} = ${Math.trunc(value)}`);
  }

  /** Opens (creating if needed) the database at `path` and migrates it. */
  static open(path: string, options: StoreOptions = {}): Store {
    const store = new Store(path, options.tuning ?? {});
    try {
      store.migrate(options.migrations ?? allMigrations);
    } catch (err) {
      store.close();
      throw err;
    }
    return store;
  }

  /** The schema version recorded in the file (`PRAGMA user_version`). */
  get version(): number {
    return Number(this.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0);
  }

  /** Applies every migration newer than the file's version, each in its own transaction. */
  migrate(migrations: Migration[]): void {
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].version === sorted[i - 1].version) {
        throw new Error(`Duplicate migration version ${sorted[i].version}`);
      }
    }
    for (const m of sorted) {
      if (m.version <= this.version) continue;
      this.tx(() => {
        this.db.exec(m.sql);
        // user_version cannot take a bound parameter; the value is an integer we own.
        this.db.exec(`PRAGMA user_version = ${Math.trunc(m.version)}`);
      });
    }
  }

  /** A cached prepared statement. */
  stmt(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** First row of `sql`, or undefined. */
  get<T = Row>(sql: string, ...params: Params): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined;
  }

  /** All rows of `sql`. */
  all<T = Row>(sql: string, ...params: Params): T[] {
    return this.stmt(sql).all(...params) as T[];
  }

  /** Runs a statement; returns the number of changed rows and the last row id. */
  run(sql: string, ...params: Params): { changes: number; lastInsertRowid: number } {
    const r = this.stmt(sql).run(...params);
    return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
  }

  /**
   * Runs `fn` in a transaction (a savepoint when nested). `fn` is synchronous on
   * purpose: node:sqlite is synchronous, and an await inside a transaction
   * would let other requests interleave with it.
   */
  tx<T>(fn: () => T): T {
    if (this.#guard !== null) this.#guard();
    const outer = this.#depth === 0;
    const sp = `sp${this.#depth}`;
    // Hooks registered inside a savepoint that is rolled back must not fire later.
    const hooksBefore = this.#afterCommit.length;
    this.db.exec(outer ? "BEGIN IMMEDIATE" : `SAVEPOINT ${sp}`);
    this.#depth++;
    let result: T;
    try {
      result = fn();
      if (result instanceof Promise) {
        throw new Error("Store.tx() callback must be synchronous");
      }
    } catch (err) {
      this.#depth--;
      if (outer) {
        this.db.exec("ROLLBACK");
        this.#afterCommit = [];
      } else {
        this.db.exec(`ROLLBACK TO ${sp}; RELEASE ${sp}`);
        this.#afterCommit.length = hooksBefore;
      }
      throw err;
    }
    this.#depth--;
    if (!outer) {
      this.db.exec(`RELEASE ${sp}`);
      return result;
    }
    this.db.exec("COMMIT");
    const hooks = this.#afterCommit;
    this.#afterCommit = [];
    for (const hook of hooks) hook();
    return result;
  }

  /**
   * The two halves of `tx()` for the asynchronous transactor
   * (`lib/store/sqlite_async.ts`), which holds a transaction across awaits:
   * `begin()` opens a transaction (a savepoint when one is open) and `finish()`
   * commits or rolls back what `begin()` opened, running the hooks after an
   * outer commit. `tx()` keeps its own inline copy: it is on the hot paths.
   */
  begin(): StoreMark {
    const mark = {
      outer: this.#depth === 0,
      sp: `sp${this.#depth}`,
      hooks: this.#afterCommit.length,
    };
    this.db.exec(mark.outer ? "BEGIN IMMEDIATE" : `SAVEPOINT ${mark.sp}`);
    this.#depth++;
    return mark;
  }

  /**
   * Installs (or with null removes) a check that `tx()` runs first. The
   * asynchronous transactor sets one while its transaction is open, so a
   * synchronous transaction of code outside it fails loudly instead of
   * becoming a savepoint of someone else's transaction.
   */
  guard(check: (() => void) | null): void {
    this.#guard = check;
  }

  /** Ends what `begin()` began: commits when `ok`, else rolls back. */
  finish(mark: StoreMark, ok: boolean): void {
    this.#depth--;
    if (!ok) {
      if (mark.outer) {
        this.db.exec("ROLLBACK");
        this.#afterCommit = [];
      } else {
        this.db.exec(`ROLLBACK TO ${mark.sp}; RELEASE ${mark.sp}`);
        this.#afterCommit.length = mark.hooks;
      }
      return;
    }
    if (!mark.outer) {
      this.db.exec(`RELEASE ${mark.sp}`);
      return;
    }
    this.db.exec("COMMIT");
    const hooks = this.#afterCommit;
    this.#afterCommit = [];
    for (const hook of hooks) hook();
  }

  /** Runs `hook` after the current transaction commits, or now when none is open. */
  afterCommit(hook: () => void): void {
    if (this.#depth === 0) hook();
    else this.#afterCommit.push(hook);
  }

  /** True while a transaction is open. */
  get inTransaction(): boolean {
    return this.#depth > 0;
  }

  /** Writes a consistent copy of the database to `dest` (online, WAL-safe). */
  snapshot(dest: string): void {
    this.db.prepare("VACUUM INTO ?").run(dest);
  }

  close(): void {
    if (!this.db.isOpen) return;
    this.#statements.clear();
    this.db.close();
  }
}
