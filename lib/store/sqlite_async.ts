/**
 * The asynchronous transactor and executor over the synchronous SQLite
 * `Store`. One connection serves the whole process, so two asynchronous
 * transactions must never be open on it at once: `tx()` queues them, one
 * at a time (SQLite allows one writer anyway). Inside a transaction the
 * repositories' statements run at once; outside it, while another chain's
 * transaction is open, they wait for it to end, so they neither read its
 * uncommitted rows nor write into it.
 *
 * Code still on the synchronous `Store.tx()` (the domains not yet ported)
 * cannot wait: if it runs while an asynchronous transaction is open and is
 * not part of it, `Store.tx()` throws rather than becoming a savepoint of a
 * transaction that may roll back. The window is small: a SQLite repository
 * call resolves at once, so between the awaits of `fn` only microtasks
 * already queued can run, never a timer or I/O callback.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AsyncTransactor } from "./async_transactor.ts";
import type { Store } from "./store.ts";

/** One open asynchronous transaction. */
interface Frame {
  readonly store: Store;
}

const instances = new WeakMap<Store, SqliteAsync>();

export class SqliteAsync implements AsyncTransactor {
  readonly store: Store;
  readonly #context = new AsyncLocalStorage<Frame>();
  /** Settles when the transaction open now (and every one queued before it) has ended. */
  #idle: Promise<void> = Promise.resolve();
  /** The open transaction; a chain is inside it when its context holds this very frame. */
  #current: Frame | null = null;

  private constructor(store: Store) {
    this.store = store;
  }

  /** The one instance of `store`: every repository and service of a process shares its queue. */
  static of(store: Store): SqliteAsync {
    let it = instances.get(store);
    if (!it) {
      it = new SqliteAsync(store);
      instances.set(store, it);
    }
    return it;
  }

  /** True while the caller's async chain is inside an open transaction of this store. */
  get inTransaction(): boolean {
    return this.#current !== null && this.#context.getStore() === this.#current;
  }

  tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return this.#nested(fn);
    const turn = this.#idle.then(() => this.#outer(fn));
    // The next transaction waits for this one whatever its outcome.
    this.#idle = turn.then(() => {}, () => {});
    return turn;
  }

  async #outer<T>(fn: () => Promise<T>): Promise<T> {
    const frame: Frame = { store: this.store };
    const mark = this.store.begin();
    this.#current = frame;
    this.store.guard(() => {
      if (this.#context.getStore() !== frame) {
        throw new Error("A synchronous transaction ran while an asynchronous one was open");
      }
    });
    let ok = false;
    try {
      const result = await this.#context.run(frame, fn);
      ok = true;
      return result;
    } finally {
      this.store.guard(null);
      this.#current = null;
      this.store.finish(mark, ok);
    }
  }

  async #nested<T>(fn: () => Promise<T>): Promise<T> {
    const mark = this.store.begin();
    let ok = false;
    try {
      const result = await fn();
      ok = true;
      return result;
    } finally {
      this.store.finish(mark, ok);
    }
  }

  afterCommit(hook: () => void): void {
    this.store.afterCommit(hook);
  }

  /**
   * Runs a repository's synchronous statements: at once when no transaction
   * is open or the caller is inside it (the common case costs one check),
   * else after the open transactions have ended.
   */
  async run<T>(fn: (store: Store) => T): Promise<T> {
    if (this.#current !== null && this.#context.getStore() !== this.#current) {
      while (this.#current !== null) await this.#idle;
    }
    return fn(this.store);
  }
}
