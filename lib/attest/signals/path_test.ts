import { assert, assertEquals, assertNotEquals } from "../../../tests/assert.ts";
import type { EntropyEvent } from "../canonical.ts";
import { addTally, emptyTally, pathHash, pathRegular, tallyPath } from "./path.ts";

/**
 * A hand on a mouse, written sample by sample: one frame (16–17 ms) apart,
 * accelerating into a curve and slowing out of it, per-frame deltas that
 * jitter in length and direction, a pause of 250 ms, then a second stroke
 * bending back.
 */
const HUMAN: EntropyEvent[] = [
  { x: 200, y: 300, t: 0 },
  { x: 203, y: 301, t: 16.6 },
  { x: 208, y: 303, t: 33.3 },
  { x: 216, y: 305, t: 50 },
  { x: 226, y: 309, t: 66.6 },
  { x: 237, y: 315, t: 83.3 },
  { x: 246, y: 322, t: 100 },
  { x: 253, y: 330, t: 116.6 },
  { x: 257, y: 339, t: 133.3 },
  { x: 259, y: 346, t: 150 },
  { x: 260, y: 349, t: 166.6 },
  { x: 259, y: 354, t: 416.6 },
  { x: 256, y: 360, t: 433.3 },
  { x: 250, y: 368, t: 450 },
  { x: 242, y: 375, t: 466.6 },
  { x: 233, y: 380, t: 483.3 },
  { x: 226, y: 383, t: 500 },
  { x: 222, y: 384, t: 516.6 },
  { x: 219, y: 386, t: 533.3 },
  { x: 213, y: 391, t: 550 },
  { x: 205, y: 399, t: 566.6 },
  { x: 198, y: 410, t: 583.3 },
  { x: 194, y: 421, t: 600 },
  { x: 193, y: 429, t: 616.6 },
];

/**
 * What Playwright's `mouse.move(x, y, {steps: 10})` leaves, twice, with a
 * pause between: ten samples evenly spaced on each straight segment, one
 * every 16.7 ms (a fixed interval), as the browser client rounds them.
 */
const PLAYWRIGHT: EntropyEvent[] = [
  { x: 100, y: 100, t: 0 },
  { x: 112, y: 105, t: 16.7 },
  { x: 124, y: 110, t: 33.4 },
  { x: 136, y: 115, t: 50.1 },
  { x: 148, y: 120, t: 66.8 },
  { x: 160, y: 125, t: 83.5 },
  { x: 172, y: 130, t: 100.2 },
  { x: 184, y: 135, t: 116.9 },
  { x: 196, y: 140, t: 133.6 },
  { x: 208, y: 145, t: 150.3 },
  { x: 220, y: 150, t: 167 },
  { x: 220, y: 150, t: 400 },
  { x: 213.3, y: 158.3, t: 416.7 },
  { x: 206.7, y: 166.7, t: 433.4 },
  { x: 200, y: 175, t: 450.1 },
  { x: 193.3, y: 183.3, t: 466.8 },
  { x: 186.7, y: 191.7, t: 483.5 },
  { x: 180, y: 200, t: 500.2 },
  { x: 173.3, y: 208.3, t: 516.9 },
  { x: 166.7, y: 216.7, t: 533.6 },
  { x: 160, y: 225, t: 550.3 },
  { x: 153.3, y: 233.3, t: 567 },
];

Deno.test("a curved human path with pauses has few regular triples and is not flagged, even summed over three heartbeats", () => {
  const one = tallyPath(HUMAN, emptyTally());
  assert(one.triples >= 15, `${one.triples} triples judged`);
  assert(one.regular <= 2, `${one.regular} of ${one.triples} regular`);
  const session = addTally(addTally(tallyPath(HUMAN, emptyTally()), one), one);
  assert(session.triples >= 45);
  assertEquals(pathRegular(session), false);
});

Deno.test("Playwright-style straight steps at a constant speed are regular and flagged", () => {
  const t = tallyPath(PLAYWRIGHT, emptyTally());
  // 9 triples on each line of 11 samples; the turn at the pause is not judged.
  assertEquals(t.triples, 18);
  assertEquals(t.collinear, 18);
  assertEquals(t.regular, 18);
  assert(pathRegular(t));
  // Every in-stroke segment takes 16.7 ms: the Δt spread is zero up to rounding.
  assertEquals(t.segments, 20);
  assert(Math.abs(t.dtSum / t.segments - 16.7) < 1e-9);
});

Deno.test("a regular path needs enough triples before it is flagged", () => {
  assertEquals(pathRegular(tallyPath(PLAYWRIGHT.slice(0, 8), emptyTally())), false);
});

Deno.test("the same samples shifted in x, y and t hash the same; a different path, or one sample moved by 0.1 px, does not", () => {
  const shifted = HUMAN.map((e) => ({ x: e.x - 73.4, y: e.y + 12.1, t: e.t + 48_213.7 }));
  const h = pathHash(HUMAN);
  assert(h !== null && Number.isSafeInteger(h) && h >= 0);
  assertEquals(pathHash(shifted), h);
  assertNotEquals(pathHash(PLAYWRIGHT), h);
  const nudged = HUMAN.map((e, i) => i === 12 ? { ...e, x: e.x + 0.1 } : e);
  assertNotEquals(pathHash(nudged), h);
  const later = HUMAN.map((e, i) => i === 5 ? { ...e, t: e.t + 0.1 } : e);
  assertNotEquals(pathHash(later), h);
  // Too short to hash: a few samples would match other sessions by chance.
  assertEquals(pathHash(HUMAN.slice(0, 7)), null);
});
