/**
 * What the DNS property tests (fast-check) share: one seed per file, printed
 * at the start and replayed with PALISADE_FUZZ_SEED, and run counts that
 * PALISADE_FUZZ_SCALE multiplies for a longer shake-out than the suite's.
 * fast-check prints the seed, the path and the shrunk counterexample of a
 * failure itself.
 */
import fc from "fast-check";
import { fuzzSeed } from "./fuzz_mutations.ts";

/** PALISADE_FUZZ_SCALE: a positive whole factor on every property's run count (1 by default). */
function scale(): number {
  const n = Number(Deno.env.get("PALISADE_FUZZ_SCALE") ?? "1");
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The fast-check parameters of one test file: `runs(n)` gives n runs (scaled) from the file's seed. */
export function propertySeed(name: string): (numRuns: number) => fc.Parameters<unknown> {
  const seed = fuzzSeed(name);
  const factor = scale();
  return (numRuns: number) => ({ seed, numRuns: numRuns * factor });
}

/** `fc.assert` of `property` with `params`, typed for any property. */
export function check<T>(property: fc.IRawProperty<T>, params: fc.Parameters<unknown>): void {
  fc.assert(property, params as fc.Parameters<T>);
}

/** `check` for a property whose predicate awaits (`fc.asyncProperty`). */
export async function checkAsync<T>(
  property: fc.IAsyncProperty<T>,
  params: fc.Parameters<unknown>,
): Promise<void> {
  await fc.assert(property, params as fc.Parameters<T>);
}
