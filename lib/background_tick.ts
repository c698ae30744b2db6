/**
 * A periodic step of a background job: it does not keep the process alive,
 * and a step that throws (the store closing under it) skips that turn only;
 * the next one retries. Returns the timer, for `clearInterval`.
 */
export function backgroundTick(
  step: () => void,
  intervalMs: number,
): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    try {
      step();
    } catch {
      // Skipped: the next turn retries.
    }
  }, intervalMs);
  Deno.unrefTimer(timer);
  return timer;
}
