/**
 * The asynchronous transactor and executor over `PgStore`. `tx(fn)` opens a
 * SERIALIZABLE transaction through `PgStore.tx` (re-run on serialization
 * conflicts) and puts it into the async context, so a repository reads
 * `sql` and gets the transaction's connection inside `fn` and the pool
 * outside it. A `tx()` inside `fn` is a savepoint of the same transaction.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AsyncTransactor } from "../async_transactor.ts";
import type { PgStore, Sql, TxSql } from "./pg_store.ts";

/** One attempt of an open transaction: its connection and the hooks it registered. */
interface Frame {
  readonly sql: TxSql;
  readonly hooks: (() => void)[];
}

const instances = new WeakMap<PgStore, PgAsync>();

export class PgAsync implements AsyncTransactor {
  readonly store: PgStore;
  readonly #context = new AsyncLocalStorage<Frame>();

  private constructor(store: PgStore) {
    this.store = store;
  }

  /** The one instance of `store`, shared by its repositories and services. */
  static of(store: PgStore): PgAsync {
    let it = instances.get(store);
    if (!it) {
      it = new PgAsync(store);
      instances.set(store, it);
    }
    return it;
  }

  /** Where a repository sends its statements: the current transaction, else the pool. */
  get sql(): Sql | TxSql {
    return this.#context.getStore()?.sql ?? this.store.sql;
  }

  /** True while the caller's async chain is inside a transaction. */
  get inTransaction(): boolean {
    return this.#context.getStore() !== undefined;
  }

  tx<T>(fn: () => Promise<T>): Promise<T> {
    const open = this.#context.getStore();
    if (open) return this.#nested(open, fn);
    return this.store.tx(async ({ sql, afterCommit }) => {
      // A fresh frame per attempt: hooks of an attempt that was re-run are dropped.
      const frame: Frame = { sql, hooks: [] };
      const result = await this.#context.run(frame, fn);
      for (const hook of frame.hooks) afterCommit(hook);
      return result;
    });
  }

  async #nested<T>(frame: Frame, fn: () => Promise<T>): Promise<T> {
    const hooks = frame.hooks.length;
    try {
      // The savepoint runs on the transaction's connection, which `sql` already names.
      return (await frame.sql.savepoint(() => fn())) as T;
    } catch (err) {
      frame.hooks.length = hooks;
      throw err;
    }
  }

  afterCommit(hook: () => void): void {
    const frame = this.#context.getStore();
    if (frame) frame.hooks.push(hook);
    else hook();
  }
}
