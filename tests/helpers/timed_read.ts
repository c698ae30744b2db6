/**
 * Timing a read on a shared, busy machine (the suite runs its files in parallel on two cores): a
 * read over its budget is repeated, up to `tries` times, and the fastest run counts. A scheduler
 * stall inflates one run, not the fastest of three, while a read that is really slow stays slow
 * every time. The first answer is the one returned, so a walk sees what it would have without
 * the repeats.
 */
export async function timedRead<T>(
  read: () => Promise<T>,
  budgetMs: number,
  tries = 3,
): Promise<{ result: T; ms: number }> {
  let started = performance.now();
  const result = await read();
  let ms = performance.now() - started;
  for (let i = 1; i < tries && ms >= budgetMs; i++) {
    started = performance.now();
    await read();
    ms = Math.min(ms, performance.now() - started);
  }
  return { result, ms };
}
