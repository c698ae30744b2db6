import { assert, assertEquals, assertThrows } from "../../tests/assert.ts";
import { loadTestCore } from "../../tests/helpers/attest_core.ts";
import { fromBase64 } from "../bytes.ts";
import { randomBelow, randomProgram, randomProgramBytes } from "./program.ts";

Deno.test("randomProgram() yields base64 programs of every length 8..16 that the core runs", async () => {
  const core = await loadTestCore();
  const lengths = new Set<number>();
  for (let i = 0; i < 2_000; i++) {
    const b64 = randomProgram();
    const bytes = fromBase64(b64)!;
    assert(bytes.length >= 8 && bytes.length <= 16, `length ${bytes.length}`);
    lengths.add(bytes.length);
    const result = core.run_program(b64);
    assert(result.ip <= bytes.length);
    assert(result.stack.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff));
  }
  assertEquals([...lengths].sort((a, b) => a - b), [8, 9, 10, 11, 12, 13, 14, 15, 16]);
});

Deno.test("randomProgramBytes() uses the injected random source", () => {
  let calls = 0;
  const fixed = (n: number) => {
    calls++;
    return new Uint8Array(n).fill(0x31);
  };
  // 0x31 % 9 = 4 → length 12, every instruction PUSHK 1.
  assertEquals(randomProgramBytes(fixed), new Uint8Array(12).fill(0x31));
  assertEquals(calls, 2);
});

Deno.test("randomBelow() rejects biased bytes and bad bounds", () => {
  const bytes = [255, 254, 7];
  const source = (n: number) => Uint8Array.from(bytes.splice(0, n));
  // bound 9: bytes ≥ 252 are rejected, 7 is accepted.
  assertEquals(randomBelow(9, source), 7);
  assertThrows(() => randomBelow(0), RangeError);
  assertThrows(() => randomBelow(257), RangeError);
});
