import { assertEquals } from "../../tests/assert.ts";
import { electedStep, type Elector, singleInstance } from "./elector.ts";

Deno.test("on SQLite every tick runs the job", async () => {
  let runs = 0;
  const tick = electedStep(singleInstance, "housekeeping", () => runs++);
  assertEquals([await tick(), await tick()], [true, true]);
  assertEquals(runs, 2);
});

Deno.test("an instance that is not elected skips the step", async () => {
  let runs = 0;
  const never: Elector = { elected: () => Promise.resolve(false), close: () => Promise.resolve() };
  assertEquals(await electedStep(never, "dnssec_rollover", () => runs++)(), false);
  assertEquals(runs, 0);
});
