import { assert, assertEquals, assertThrows } from "../../tests/assert.ts";
import { loadTestCore } from "../../tests/helpers/attest_core.ts";
import { fromBase64, toBase64 } from "../bytes.ts";
import {
  decodeMutationOrder,
  encodeMutationOrder,
  generateMutationOrder,
  MutationKind,
  randomMutationOrder,
} from "./mutation_order.ts";

const SID = "ab".repeat(32);

Deno.test("randomMutationOrder() yields orders the core accepts, with 1..3 rounds and 4..12 ops", async () => {
  const core = await loadTestCore();
  const state = core.initialGeneState(512)!;
  for (let i = 0; i < 500; i++) {
    const b64 = randomMutationOrder();
    const order = decodeMutationOrder(fromBase64(b64)!)!;
    assert(order.rounds >= 1 && order.rounds <= 3);
    assert(order.ops.length >= 4 && order.ops.length <= 12);
    assertEquals(core.mutation_order_rounds(b64), order.rounds);
    assert(core.applyMutationAndCommit(state, b64, SID, i) !== null);
  }
});

Deno.test("encodeMutationOrder() writes the documented bytes and decodeMutationOrder() reads them back", () => {
  const order = {
    rounds: 2,
    ops: [
      { kind: MutationKind.Swap, offset: 0x1234, length: 256, arg: 9 },
      { kind: MutationKind.Chain, offset: 0, length: 1, arg: 255 },
    ],
  };
  const bytes = encodeMutationOrder(order);
  assertEquals(bytes, Uint8Array.from([1, 2, 2, 3, 0x34, 0x12, 255, 9, 5, 0, 0, 0, 255]));
  assertEquals(decodeMutationOrder(bytes), order);
  for (let i = 0; i < 200; i++) {
    const random = generateMutationOrder({ rounds: 16, ops: 32 });
    assertEquals(decodeMutationOrder(encodeMutationOrder(random)), random);
  }
});

Deno.test("encodeMutationOrder() rejects out-of-range fields", () => {
  const op = { kind: MutationKind.Xor, offset: 0, length: 1, arg: 0 };
  assertThrows(() => encodeMutationOrder({ rounds: 0, ops: [op] }), RangeError, "rounds");
  assertThrows(() => encodeMutationOrder({ rounds: 17, ops: [op] }), RangeError, "rounds");
  assertThrows(() => encodeMutationOrder({ rounds: 1, ops: [] }), RangeError, "op count");
  assertThrows(() => encodeMutationOrder({ rounds: 1, ops: new Array(33).fill(op) }), RangeError);
  assertThrows(
    () => encodeMutationOrder({ rounds: 1, ops: [{ ...op, kind: 6 as MutationKind }] }),
    RangeError,
  );
  assertThrows(
    () => encodeMutationOrder({ rounds: 1, ops: [{ ...op, offset: 65536 }] }),
    RangeError,
  );
  assertThrows(() => encodeMutationOrder({ rounds: 1, ops: [{ ...op, length: 0 }] }), RangeError);
  assertThrows(() => encodeMutationOrder({ rounds: 1, ops: [{ ...op, length: 257 }] }), RangeError);
  assertThrows(() => encodeMutationOrder({ rounds: 1, ops: [{ ...op, arg: 256 }] }), RangeError);
});

Deno.test("decodeMutationOrder() rejects what the core rejects", async () => {
  const core = await loadTestCore();
  const good = encodeMutationOrder(generateMutationOrder({ rounds: 2, ops: 3 }));
  const variants = [
    Uint8Array.from([2, ...good.subarray(1)]),
    Uint8Array.from([1, 0, ...good.subarray(2)]),
    good.subarray(0, good.length - 1),
    Uint8Array.from([...good, 0]),
    Uint8Array.from([1, 1, 0]),
    new Uint8Array(0),
  ];
  const badKind = good.slice();
  badKind[3] = 7;
  variants.push(badKind);
  for (const v of variants) {
    assertEquals(decodeMutationOrder(v), null);
    assertEquals(core.mutation_order_rounds(toBase64(v)), 0);
  }
});
