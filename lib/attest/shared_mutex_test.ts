import { assert, assertEquals } from "../../tests/assert.ts";
import { waitFor } from "../../tests/helpers/wait.ts";
import { SharedMutex } from "./shared_mutex.ts";

Deno.test("shared mutex: tryLock takes a free lock only", () => {
  const m = new SharedMutex(new SharedArrayBuffer(4));
  assert(m.tryLock());
  assert(!m.tryLock(), "held");
  m.unlock();
  assert(m.tryLock(), "free again");
  m.unlock();
});

Deno.test("shared mutex: lock() waits for a holder on another thread", async () => {
  // Word 0: the lock; word 1: set by the other thread once it holds the lock.
  const buffer = new SharedArrayBuffer(8);
  const word = new Int32Array(buffer);
  const m = new SharedMutex(buffer);
  m.lock();
  const code = `
    import { SharedMutex } from ${JSON.stringify(import.meta.resolve("./shared_mutex.ts"))};
    self.onmessage = ({ data }) => {
      const m = new SharedMutex(data);
      m.lock();
      Atomics.store(new Int32Array(data), 1, 1);
      m.unlock();
    };`;
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  try {
    worker.postMessage(buffer);
    // The other thread marks the lock contended (2) before it sleeps on it.
    assert(await waitFor(() => Atomics.load(word, 0) === 2, 10_000, 1), "contended");
    await new Promise((r) => setTimeout(r, 20));
    assertEquals(Atomics.load(word, 1), 0, "not acquired while held here");
    m.unlock();
    assert(await waitFor(() => Atomics.load(word, 1) === 1, 10_000, 1), "acquired");
    // It marks the acquisition just before its unlock(): the release may lag a moment.
    assert(
      await waitFor(() => Atomics.load(word, 0) === 0, 10_000, 1),
      "released by the other thread",
    );
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});

Deno.test("shared mutex: threads never hold it at once", async () => {
  // Each thread does a non-atomic read-modify-write of a shared counter under
  // the lock, taken half the time with lock() and half by spinning on
  // tryLock(); a lost update would show in the total.
  const buffer = new SharedArrayBuffer(8);
  const rounds = 20_000;
  const code = `
    import { SharedMutex } from ${JSON.stringify(import.meta.resolve("./shared_mutex.ts"))};
    self.onmessage = ({ data: { buffer, rounds } }) => {
      const m = new SharedMutex(buffer);
      const n = new Int32Array(buffer, 4, 1);
      for (let i = 0; i < rounds; i++) {
        if (i % 2) m.lock(); else while (!m.tryLock());
        const v = n[0];
        for (let k = 0; k < 20; k++) Math.sqrt(k);
        n[0] = v + 1;
        m.unlock();
      }
      self.postMessage("done");
    };`;
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const workers = [0, 1, 2].map(() => new Worker(url, { type: "module" }));
  try {
    await Promise.all(workers.map((w) =>
      new Promise((resolve, reject) => {
        w.onmessage = resolve;
        w.onerror = reject;
        w.postMessage({ buffer, rounds });
      })
    ));
  } finally {
    workers.forEach((w) => w.terminate());
    URL.revokeObjectURL(url);
  }
  assertEquals(new Int32Array(buffer, 4, 1)[0], 3 * rounds);
  assertEquals(new Int32Array(buffer, 0, 1)[0], 0, "released");
});
