import { assertEquals } from "../../tests/assert.ts";
import { fastIso } from "./fast_iso.ts";

Deno.test("fastIso() equals toISOString() across days, edges and milliseconds", () => {
  const samples = [
    0,
    1,
    999,
    86_399_999,
    86_400_000,
    951_782_400_000,
    1_767_225_600_123,
    4_102_444_799_999,
  ];
  for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 4_102_444_800_000));
  for (const ms of samples) assertEquals(fastIso(ms), new Date(ms).toISOString(), String(ms));
});
