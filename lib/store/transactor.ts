/**
 * What a service needs of the store besides its repositories: transactions
 * and after-commit hooks. Engine-neutral, so that a second storage engine
 * (PostgreSQL, planned) can provide it; `Store` is the SQLite one.
 */
export interface Transactor {
  /**
   * Runs `fn` in a transaction (a savepoint when nested) and returns its
   * result; a throw rolls everything back. `fn` is synchronous on purpose:
   * an await inside a transaction would let other requests interleave with it.
   */
  tx<T>(fn: () => T): T;
  /** Runs `hook` after the current transaction commits, or now when none is open. */
  afterCommit(hook: () => void): void;
}
