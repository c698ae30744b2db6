/**
 * A mutex in shared memory for the threads serving the attestation listener
 * (a futex-style lock with three states: 0 free, 1 held, 2 held with
 * waiters). `lock()` blocks the calling thread; a thread with other work to
 * do calls `tryLock()` and comes back later. Never hold it across an `await`.
 * (`Atomics.waitAsync` would be the non-blocking wait, but Deno resolves it
 * only when something else wakes the event loop: denoland/deno#15358.)
 */
export class SharedMutex {
  readonly #word: Int32Array;

  /** The lock word at `byteOffset` (4-byte aligned) of `buffer`, zero when free. */
  constructor(buffer: SharedArrayBuffer, byteOffset = 0) {
    this.#word = new Int32Array(buffer, byteOffset, 1);
  }

  /** Takes the lock if it is free; never waits. */
  tryLock(): boolean {
    return Atomics.compareExchange(this.#word, 0, 0, 1) === 0;
  }

  /** Takes the lock, blocking the thread while another holds it. */
  lock(): void {
    const w = this.#word;
    let c = Atomics.compareExchange(w, 0, 0, 1);
    if (c === 0) return;
    do {
      if (c === 2 || Atomics.compareExchange(w, 0, 1, 2) !== 0) Atomics.wait(w, 0, 2, 10);
    } while ((c = Atomics.compareExchange(w, 0, 0, 2)) !== 0);
  }

  /** Releases the lock and wakes one waiter, if any. */
  unlock(): void {
    const w = this.#word;
    if (Atomics.sub(w, 0, 1) !== 1) {
      Atomics.store(w, 0, 0);
      Atomics.notify(w, 0, 1);
    }
  }
}
