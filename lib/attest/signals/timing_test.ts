import { assert, assertEquals } from "../../../tests/assert.ts";
import { fingerprintInconsistent, timingRegular } from "./timing.ts";

const sums = (xs: number[]) =>
  [xs.length, xs.reduce((a, b) => a + b, 0), xs.reduce((a, b) => a + b * b, 0)] as const;

Deno.test("heartbeats on a fixed period are timing-regular; uniformly jittered ones are not", () => {
  // A bot sending every 2 s, with a few ms of network noise.
  const bot = sums([2003, 1998, 2001, 2004, 1999, 2000]);
  assert(timingRegular(...bot, 1500, 2500));
  // The browser client's jitter between 1.5 s and 2.5 s.
  const human = sums([1612, 2380, 1905, 2211, 1540, 2467]);
  assertEquals(timingRegular(...human, 1500, 2500), false);
});

Deno.test("timing is not judged with fewer than five intervals or without a jitter window", () => {
  assertEquals(timingRegular(...sums([2000, 2000, 2000, 2000]), 1500, 2500), false);
  assertEquals(timingRegular(...sums([2000, 2000, 2000, 2000, 2000, 2000]), 2000, 2000), false);
});

Deno.test("a changed hardwareConcurrency is inconsistent; a resized window or zoom alone is not", () => {
  assert(
    fingerprintInconsistent({ aspect_ratio: 0, device_pixel_ratio: 0, hardware_concurrency: 1 }),
  );
  assertEquals(
    fingerprintInconsistent({ aspect_ratio: 3, device_pixel_ratio: 1, hardware_concurrency: 0 }),
    false,
  );
});
