import { assertEquals } from "../../tests/assert.ts";
import { RateLimitError } from "../errors.ts";
import { BoundedSlots } from "./bounded_slots.ts";

Deno.test("BoundedSlots runs at most `max` tasks at once and refuses beyond its queue", async () => {
  const slots = new BoundedSlots(2, 3);
  let active = 0;
  let peak = 0;
  const task = () =>
    slots.run(async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
      return "done";
    });
  const results = await Promise.all(
    Array.from(
      { length: 6 },
      () => task().catch((e) => (e instanceof RateLimitError ? "refused" : "other")),
    ),
  );
  assertEquals(peak, 2);
  assertEquals(results.filter((r) => r === "done").length, 5);
  assertEquals(results.filter((r) => r === "refused").length, 1);
  assertEquals(slots.running, 0);
  assertEquals(await task(), "done", "slots are free again");
});
