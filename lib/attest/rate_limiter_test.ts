import { assert, assertEquals } from "../../tests/assert.ts";
import { SlidingWindowLimiter } from "./rate_limiter.ts";

const ID = "ab".repeat(32);

Deno.test("rate limiter: 5 per 10 s per key, the window slides", () => {
  const l = new SlidingWindowLimiter(5, 10_000, 64);
  const t0 = 1_700_000_000_000;
  for (let i = 0; i < 5; i++) assert(l.allow(ID, t0 + i * 1000), `request ${i + 1}`);
  assert(!l.allow(ID, t0 + 5000), "6th within the window");
  // The window counts every request, refused ones included: the 2nd is now the oldest of the last five.
  assert(!l.allow(ID, t0 + 10_500), "t0+1000 … t0+5000 are still within 10 s");
  assert(l.allow(ID, t0 + 14_000), "the oldest of the last five left the window");
});

Deno.test("rate limiter: keys are independent, whatever their length", () => {
  const l = new SlidingWindowLimiter(2, 10_000, 64);
  const keys = [ID, "cd".repeat(32), "::1", "127.0.0.1", "x", "y".repeat(63), "z".repeat(200)];
  for (const k of keys) {
    assert(l.allow(k, 1000) && l.allow(k, 1001), k);
    assert(!l.allow(k, 1002), k);
  }
  // Same prefix, different length.
  assert(l.allow("y".repeat(62), 1003));
  assert(l.allow("z".repeat(201), 1003));
});

Deno.test("rate limiter: a full table drops the key idle the longest, never throws", () => {
  const l = new SlidingWindowLimiter(1, 10_000, 32);
  for (let i = 0; i < 100; i++) assert(l.allow(`key-${i}`, 1000 + i));
  // The newest keys are still limited.
  assert(!l.allow("key-99", 1200));
  // Expired slots are reused without eviction.
  for (let i = 0; i < 32; i++) assert(l.allow(`later-${i}`, 50_000));
  assert(!l.allow("later-31", 50_001));
});

Deno.test("rate limiter: one table shared with another thread counts both", async () => {
  const l = new SlidingWindowLimiter(5, 10_000, 64);
  const code = `
    import { SlidingWindowLimiter } from "${new URL("./rate_limiter.ts", import.meta.url)}";
    self.onmessage = (e) => {
      const l = new SlidingWindowLimiter(e.data.table);
      self.postMessage([0, 1, 2].map((i) => l.allow(e.data.key, 1000 + i)));
    };`;
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  try {
    const fromWorker = await new Promise<boolean[]>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.postMessage({ table: l.table, key: ID });
    });
    assertEquals(fromWorker, [true, true, true]);
    assert(l.allow(ID, 1003) && l.allow(ID, 1004), "4th and 5th");
    assert(!l.allow(ID, 1005), "the 6th is refused whichever thread saw the first five");
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});
