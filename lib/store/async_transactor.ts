/**
 * The transaction interface of the ported (asynchronous) repositories, one
 * per engine: `SqliteAsync` (lib/store/sqlite_async.ts) and `PgAsync`
 * (lib/store/pg/pg_async.ts). It replaces the synchronous `Transactor`
 * domain by domain (docs/scaling.md).
 *
 * The current transaction travels with the async call chain
 * (`AsyncLocalStorage`): a repository called inside `tx(fn)` runs in that
 * transaction without being handed it, and a `tx()` inside `fn` is nested:
 * a savepoint of the outer transaction that commits with it, while a throw
 * out of it rolls back only its own part (and drops its hooks).
 */
export interface AsyncTransactor {
  /**
   * Runs `fn` in a transaction and returns its result; a throw rolls back.
   * On PostgreSQL `fn` may run more than once (a serialization conflict
   * re-runs it), so it touches only the database and registers hooks.
   * Nested calls inside one `fn` run one after the other, never concurrently.
   */
  tx<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs `hook` after the current transaction commits, or now when none is open. */
  afterCommit(hook: () => void): void;
}
