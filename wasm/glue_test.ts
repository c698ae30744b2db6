/**
 * The string/object API of wasm/glue.ts over the compiled core: the ten
 * exports of the spec, the server helpers, failure values and key hygiene.
 * The VM, gene and hash-chain rules are checked against the TypeScript
 * restatement of docs/attestation.md in testdata/reference.ts.
 */
import { blake3 } from "@noble/hashes/blake3.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { assert, assertEquals, assertNotEquals } from "../tests/assert.ts";
import { loadTestCore } from "../tests/helpers/attest_core.ts";
import {
  type AttestCore,
  fromBase64,
  fromBase64Portable,
  fromHex,
  fromHexPortable,
  isHex,
  PROGRAM_INVALID_IP,
  toBase64,
  toBase64Portable,
  toHex,
  toHexPortable,
  writeBase64,
  writeBase64Portable,
  writeHex,
  writeHexPortable,
} from "./glue.ts";
import {
  referenceCommit,
  referenceGeneInit,
  referenceMutate,
  referenceNextHash,
  referenceVm,
} from "./testdata/reference.ts";

const SID = "11".repeat(32);
const SID_BYTES = fromHex(SID, 32)!;

function rand(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

function randInt(max: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] % (max + 1);
}

function randomOrder(ops = 1 + randInt(8), rounds = 1 + randInt(3)): Uint8Array {
  const order = new Uint8Array(3 + 5 * ops);
  order.set([1, rounds, ops]);
  order.set(rand(5 * ops), 3);
  for (let i = 0; i < ops; i++) order[3 + 5 * i] %= 6;
  return order;
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

Deno.test("get_public_key() and sign_message() return an empty string before a key exists", async () => {
  const core = await loadTestCore();
  assertEquals(core.get_public_key(), "");
  assertEquals(core.sign_message("x"), "");
  assertEquals(core.signBytes(new Uint8Array(1)), null);
});

Deno.test("forget_key() zeroes the key and later signing fails", async () => {
  const core = await loadTestCore();
  core.generate_keypair();
  core.forget_key();
  assertEquals(core.get_public_key(), "");
  assertEquals(core.sign_message("x"), "");
});

Deno.test("keypair_from_seed() rejects a seed that is not 32 bytes", async () => {
  const core = await loadTestCore();
  assertEquals(core.keypair_from_seed(new Uint8Array(31)), "");
  assertEquals(core.get_public_key(), "");
});

Deno.test("a replaced private key leaves no copy of the seed, scalar or prefix in WASM memory", async () => {
  const core = await loadTestCore();
  const seedA = rand(32);
  const h = sha512(seedA);
  const scalar = h.slice(0, 32);
  scalar[0] &= 248;
  scalar[31] = (scalar[31] & 127) | 64;
  const prefix = h.slice(32);
  core.keypair_from_seed(seedA);
  core.sign_message("use the key once");
  const live = new Uint8Array(core.memory.buffer);
  // Positive control: the key is where the scan can see it, exactly once
  // (the argument area the seed was passed through has been zeroed).
  assertNotEquals(indexOf(live, seedA), -1);
  assertEquals(indexOf(live.subarray(indexOf(live, seedA) + 1), seedA), -1);
  assertNotEquals(indexOf(live, scalar), -1);
  assertNotEquals(indexOf(live, prefix), -1);

  core.generate_keypair();
  const after = new Uint8Array(core.memory.buffer);
  assertEquals(indexOf(after, seedA), -1);
  assertEquals(indexOf(after, scalar), -1);
  assertEquals(indexOf(after, prefix), -1);
});

Deno.test("memory does not grow over repeated calls once the IO buffer is sized", async () => {
  const core = await loadTestCore();
  core.generate_keypair();
  core.init_gene_state(4096);
  const order = toBase64(randomOrder(8, 2));
  const warm = () => {
    core.sign_message("m".repeat(2000));
    core.preview_gene_commitment(order, SID, 1, 0);
    core.applyMutationAndCommit(core.initialGeneState(4096)!, order, SID, 1);
    core.compute_next_hash("00".repeat(32), 1, "{}", "{}", "00".repeat(16));
    core.run_program(toBase64(rand(12)));
  };
  warm();
  const before = core.memory.buffer.byteLength;
  for (let i = 0; i < 300; i++) warm();
  assertEquals(core.memory.buffer.byteLength, before);
});

Deno.test("compute_next_hash() follows the spec's H(n) for random inputs", async () => {
  const core = await loadTestCore();
  for (let i = 0; i < 500; i++) {
    const prev = rand(32);
    const salt = rand(16);
    const ts = BigInt(Date.now() + randInt(1_000_000));
    const entropy = JSON.stringify({ events: [{ t: randInt(99), x: randInt(999), y: 1.5 }] });
    const stack = JSON.stringify({ ip: randInt(16), stack: [randInt(2 ** 31), 7] }) + "é";
    const got = core.compute_next_hash(toHex(prev), Number(ts), entropy, stack, toHex(salt));
    assertEquals(got, toHex(referenceNextHash(salt, prev, ts, entropy, stack)));
    assertEquals(core.compute_next_hash(toHex(prev), ts, entropy, stack, toHex(salt)), got);
  }
});

Deno.test("compute_next_hash() returns an empty string for malformed input", async () => {
  const core = await loadTestCore();
  const prev = "ab".repeat(32);
  const salt = "cd".repeat(16);
  assertEquals(core.compute_next_hash(prev.slice(2), 1, "", "", salt), "");
  assertEquals(core.compute_next_hash(prev, 1, "", "", salt + "00"), "");
  assertEquals(core.compute_next_hash("zz" + prev.slice(2), 1, "", "", salt), "");
  assertEquals(core.compute_next_hash(prev, -1, "", "", salt), "");
  assertEquals(core.compute_next_hash(prev, 1.5, "", "", salt), "");
  assertEquals(core.compute_next_hash(prev, 1n << 64n, "", "", salt), "");
  assertEquals(core.compute_next_hash(prev, 1, null as unknown as string, "", salt), "");
  assertEquals(core.compute_next_hash(prev, (1n << 64n) - 1n, "", "", salt).length, 64);
  // Upper-case hex is accepted; the output is always lower case.
  assertEquals(
    core.compute_next_hash(prev.toUpperCase(), 1, "", "", salt),
    core.compute_next_hash(prev, 1, "", "", salt),
  );
});

Deno.test("initialHash() is BLAKE3(session_id ‖ public key ‖ salt)", async () => {
  const core = await loadTestCore();
  const sid = rand(32), pk = rand(32), salt = rand(16);
  const msg = new Uint8Array([...sid, ...pk, ...salt]);
  assertEquals(core.initialHash(toHex(sid), toHex(pk), toHex(salt)), toHex(blake3(msg)));
  assertEquals(core.initialHash(toHex(sid), toHex(pk), "00"), "");
});

Deno.test("run_program() matches the documented VM on 10,000 random programs and always terminates", async () => {
  const core = await loadTestCore();
  for (let i = 0; i < 10_000; i++) {
    const prog = rand(8 + randInt(8));
    const got = core.run_program(toBase64(prog));
    const want = referenceVm(prog)!;
    assertEquals(got, want, `program ${toHex(prog)}`);
    assert(got.ip <= prog.length && got.stack.length <= 32);
    assertEquals(core.run_program(toBase64(prog)), got);
  }
});

Deno.test("run_program() runs hand-written programs as documented", async () => {
  const core = await loadTestCore();
  const run = (bytes: number[]) => core.run_program(toBase64(Uint8Array.from(bytes)));
  // PUSH 5, PUSH 3, SUB, PUSH 7, MUL, PICK 0, ADD, PUSH 15
  assertEquals(run([0x05, 0x03, 0x40, 0x07, 0x50, 0x20, 0x30, 0x0f]), { stack: [28, 15], ip: 8 });
  // PUSHK 0 = 0x9e3779b9, ROTL 3 (by 4), SHR 0 (by 1), then PUSH 0 five times
  assertEquals(
    run([0x10, 0x93, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x00]).stack[0],
    (((0x9e3779b9 << 4) | (0x9e3779b9 >>> 28)) >>> 0) >>> 1,
  );
  // PUSH 1, JNZ 0 loops back to PUSH 1 until the 256-step budget: ip stays in the loop.
  assertEquals(run([0x01, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), { stack: [], ip: 0 });
  // JZ on an empty stack skips n + 1 = 16 instructions: clamped to the end.
  assertEquals(run([0xef, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01]), { stack: [], ip: 8 });
  // 16 × PUSHK never overflows; 40 pushes would, but programs are at most 16 long.
  assertEquals(run(new Array(16).fill(0x1f)).stack.length, 16);
});

Deno.test("run_program() returns an empty stack and ip 0xffff for invalid programs", async () => {
  const core = await loadTestCore();
  const empty = { stack: [], ip: PROGRAM_INVALID_IP };
  assertEquals(core.run_program(toBase64(new Uint8Array(7))), empty);
  assertEquals(core.run_program(toBase64(new Uint8Array(17))), empty);
  assertEquals(core.run_program("not base64!"), empty);
  assertEquals(core.run_program("AAAAAAAAAAA"), empty); // missing padding
  assertEquals(core.run_program(""), empty);
});

Deno.test("init_gene_state() accepts sizes 64..65536 and rejects others", async () => {
  const core = await loadTestCore();
  for (const bad of [0, 1, 63, 65537, 1e9, -64, 512.5, NaN]) {
    assertEquals(core.init_gene_state(bad), false, String(bad));
  }
  for (const good of [64, 65, 512, 65536]) assertEquals(core.init_gene_state(good), true);
  assertEquals(core.initialGeneState(63), null);
  assertEquals(core.initialGeneState(65537), null);
});

Deno.test("gene functions fail before init_gene_state()", async () => {
  const core = await loadTestCore();
  assertEquals(core.current_gene_commitment(SID, 1), "");
  assertEquals(core.preview_gene_commitment(toBase64(randomOrder()), SID, 1, 0), "");
  assertEquals(core.commit_gene_preview(), false);
});

Deno.test("initial gene state and commitments follow the documented derivation", async () => {
  const core = await loadTestCore();
  for (const size of [64, 100, 512, 4096, 65536]) {
    const state = core.initialGeneState(size)!;
    assertEquals(toHex(state), toHex(referenceGeneInit(size)));
    assertEquals(core.commitment(state, SID, 7), toHex(referenceCommit(state, SID_BYTES, 7n)));
    assert(core.init_gene_state(size));
    assertEquals(core.current_gene_commitment(SID, 7), core.commitment(state, SID, 7));
  }
});

Deno.test("mutation matches the documented rules for 1,000 random orders and sizes", async () => {
  const core = await loadTestCore();
  for (let i = 0; i < 1_000; i++) {
    const size = 64 + randInt(i % 10 === 0 ? 65536 - 64 : 2000);
    const state = i % 2 ? core.initialGeneState(size)! : rand(size);
    const order = randomOrder(1 + randInt(31), 1 + randInt(i % 20 === 0 ? 15 : 3));
    const sid = rand(32);
    const step = BigInt(randInt(1000));
    const got = core.applyMutation(state, toBase64(order), toHex(sid), step);
    assertEquals(toHex(got!), toHex(referenceMutate(state, order, sid, step)!), `case ${i}`);
  }
});

Deno.test("preview_gene_commitment() equals the server's applyMutationAndCommit() on the same state", async () => {
  const core = await loadTestCore();
  const server = await loadTestCore();
  assert(core.init_gene_state(512));
  let state = server.initialGeneState(512)!;
  for (let step = 1; step <= 20; step++) {
    const order = toBase64(randomOrder());
    const rounds = core.mutation_order_rounds(order);
    const preview = core.preview_gene_commitment(order, SID, step, rounds);
    const expected = server.applyMutationAndCommit(state, order, SID, step, rounds)!;
    assertEquals(preview, expected.commitment);
    assert(core.commit_gene_preview());
    state = expected.state;
    assertEquals(core.current_gene_commitment(SID, step), expected.commitment);
  }
});

Deno.test("commit_gene_preview() commits once; discard_gene_preview() drops the preview", async () => {
  const core = await loadTestCore();
  core.init_gene_state(512);
  const initial = core.current_gene_commitment(SID, 1);
  // A random order can leave the gene as it was (its operations may cancel or be no-ops): take
  // one that changes it, so that dropping and committing the preview can be told apart.
  let order = "";
  let preview = initial;
  for (let i = 0; i < 50 && preview === initial; i++) {
    order = toBase64(randomOrder());
    preview = core.preview_gene_commitment(order, SID, 1, 0);
    if (preview === initial) core.discard_gene_preview();
  }
  assertEquals(preview.length, 64);
  assertNotEquals(preview, initial);
  core.discard_gene_preview();
  assertEquals(core.commit_gene_preview(), false);
  assertEquals(core.current_gene_commitment(SID, 1), initial);

  // A second preview starts again from the committed state, not from the first preview.
  assertEquals(core.preview_gene_commitment(order, SID, 1, 0), preview);
  assertEquals(core.preview_gene_commitment(order, SID, 1, 0), preview);
  assert(core.commit_gene_preview());
  assertEquals(core.commit_gene_preview(), false);
  assertEquals(core.current_gene_commitment(SID, 1), preview);
  // Re-initialising drops any preview and restores the initial state.
  core.preview_gene_commitment(order, SID, 2, 0);
  core.init_gene_state(512);
  assertEquals(core.commit_gene_preview(), false);
  assertEquals(core.current_gene_commitment(SID, 1), initial);
});

Deno.test("preview_gene_commitment() returns an empty string for malformed input and drops the preview", async () => {
  const core = await loadTestCore();
  core.init_gene_state(512);
  const order = randomOrder(4, 2);
  const b64 = toBase64(order);
  const bad: Array<[string, string, number | bigint, number]> = [
    ["!!!!", SID, 1, 0],
    [b64, SID.slice(2), 1, 0],
    [b64, SID, -1, 0],
    [b64, SID, 1n << 64n, 0],
    [b64, SID, 1, 3], // rounds differs from the header (2)
    [b64, SID, 1, 256],
    [toBase64(Uint8Array.from([2, ...order.subarray(1)])), SID, 1, 0], // version
    [toBase64(Uint8Array.from([1, 0, ...order.subarray(2)])), SID, 1, 0], // 0 rounds
    [toBase64(Uint8Array.from([1, 17, ...order.subarray(2)])), SID, 1, 0], // 17 rounds
    [toBase64(order.subarray(0, order.length - 1)), SID, 1, 0], // truncated
    [toBase64(Uint8Array.from([...order, 0])), SID, 1, 0], // trailing byte
    [toBase64(Uint8Array.from([1, 2, 0])), SID, 1, 0], // no ops
  ];
  const kind6 = order.slice();
  kind6[3] = 6;
  bad.push([toBase64(kind6), SID, 1, 0]);
  for (const [o, s, step, rounds] of bad) {
    core.preview_gene_commitment(b64, SID, 1, 2);
    assertEquals(
      core.preview_gene_commitment(o, s, step, rounds),
      "",
      `${o} ${s} ${step} ${rounds}`,
    );
    assertEquals(core.commit_gene_preview(), false);
  }
  assertEquals(core.preview_gene_commitment(b64, SID, 1, 2).length, 64);
  assertEquals(core.current_gene_commitment("xy", 1), "");
  assertEquals(core.current_gene_commitment(SID, -5), "");
  assertEquals(core.applyMutation(new Uint8Array(63), b64, SID, 1), null);
  assertEquals(core.applyMutationAndCommit(new Uint8Array(512), b64, SID, 1, 9), null);
  assertEquals(core.commitment(new Uint8Array(10), SID, 1), "");
  assertEquals(core.mutation_order_rounds(toBase64(kind6)), 0);
  assertEquals(core.mutation_order_rounds(b64), 2);
});

Deno.test("applyMutation() leaves its input untouched and depends on session, step and order", async () => {
  const core = await loadTestCore();
  const state = core.initialGeneState(512)!;
  const copy = state.slice();
  // Session and step enter through the keystream: only XOR, ADD and SWAP ops read it, so the
  // order gets one XOR (a random order has none about once in 64 draws, and then cannot depend on them).
  const bytes = randomOrder(6, 2);
  bytes[3] = 0;
  const order = toBase64(bytes);
  const a = core.applyMutation(state, order, SID, 1)!;
  assertEquals(state, copy);
  assertNotEquals(toHex(a), toHex(state));
  assertNotEquals(toHex(core.applyMutation(state, order, "22".repeat(32), 1)!), toHex(a));
  assertNotEquals(toHex(core.applyMutation(state, order, SID, 2)!), toHex(a));
  assertNotEquals(toHex(core.applyMutation(state, toBase64(randomOrder(6, 2)), SID, 1)!), toHex(a));
});

Deno.test("two instances compute identical results (no hidden state)", async () => {
  const [a, b]: AttestCore[] = await Promise.all([loadTestCore(), loadTestCore()]);
  a.init_gene_state(1000);
  b.init_gene_state(1000);
  for (let step = 1; step <= 5; step++) {
    const order = toBase64(randomOrder());
    assertEquals(
      a.preview_gene_commitment(order, SID, step, 0),
      b.preview_gene_commitment(order, SID, step, 0),
    );
    a.commit_gene_preview();
    b.commit_gene_preview();
  }
});

Deno.test("fromBase64() accepts only canonical padded base64", () => {
  assertEquals(fromBase64("AQID"), Uint8Array.from([1, 2, 3]));
  assertEquals(fromBase64("AQI="), Uint8Array.from([1, 2]));
  assertEquals(fromBase64("AQ=="), Uint8Array.from([1]));
  for (const bad of ["AQ", "AQ=", "AR==", "AQJ=", "A Q==", "AQ==AQ==", "-_8=", 5]) {
    assertEquals(fromBase64(bad), null, String(bad));
  }
  // Canonical means: encoding the decoded bytes gives the input back. Every last character, both paddings.
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (const c of alphabet) {
    for (const input of [`AQ${c}=`, `A${c}==`]) {
      const bin = atob(input);
      const canonical = btoa(bin) === input;
      assertEquals(fromBase64(input) !== null, canonical, input);
    }
  }
});

Deno.test("hex and base64 give the same results with and without the platform's Uint8Array methods", () => {
  // Deno has the methods, so the exported codecs take the native path here; older browsers take the loops.
  assert(typeof (Uint8Array.prototype as { toHex?: unknown }).toHex === "function");
  for (let n = 0; n <= 40; n++) {
    const bytes = rand(n);
    assertEquals(toHex(bytes), toHexPortable(bytes));
    assertEquals(toBase64(bytes), toBase64Portable(bytes));
    assertEquals(toBase64(bytes), btoa(String.fromCharCode(...bytes)));
    assertEquals(fromHex(toHex(bytes).toUpperCase(), n), bytes);
    assertEquals(fromHexPortable(toHex(bytes).toUpperCase(), n), bytes);
    assertEquals(fromBase64(toBase64(bytes)), bytes);
    assertEquals(fromBase64Portable(toBase64(bytes)), bytes);
  }
  for (const bad of ["0g", "g0", " 0", "0x", "+1", "\u00e9a"]) {
    assertEquals(fromHex(bad, 1), null, bad);
    assertEquals(fromHexPortable(bad, 1), null, bad);
  }
  assertEquals(fromHex("abc", 1), null);
  for (const bad of ["AQ", "AQ=", "AR==", "AQJ=", "A Q==", "AQ==AQ==", "-_8=", "AQ\n=", 5]) {
    assertEquals(fromBase64(bad), null, String(bad));
    assertEquals(fromBase64Portable(bad), null, String(bad));
  }
});

Deno.test("writeHex() and writeBase64() decode in place, into plain or shared memory, and refuse what fromHex()/fromBase64() refuse", () => {
  for (const memory of [new ArrayBuffer(96), new SharedArrayBuffer(96)]) {
    const view = new Uint8Array(memory);
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 5) & 0xff);
    for (const write of [writeHex, writeHexPortable]) {
      view.fill(0);
      assert(write(view.subarray(8, 40), toHex(bytes).toUpperCase()));
      assertEquals(view.slice(8, 40), bytes);
      assertEquals(view[7], 0, "nothing before");
      assertEquals(view[40], 0, "nothing after");
      assertEquals(write(view.subarray(8, 40), toHex(bytes).slice(2)), false, "too short");
      assertEquals(write(view.subarray(8, 40), toHex(bytes) + "00"), false, "too long");
      assertEquals(write(view.subarray(8, 40), "zz" + toHex(bytes).slice(2)), false, "not hex");
      assertEquals(write(view.subarray(8, 40), 42), false, "not a string");
    }
    for (const write of [writeBase64, writeBase64Portable]) {
      for (const len of [0, 1, 2, 3, 31]) {
        const b = bytes.subarray(0, len);
        view.fill(0);
        assertEquals(write(view.subarray(40), toBase64(b)), len);
        assertEquals(view.slice(40, 40 + len), b);
        assertEquals(view[40 + len] ?? 0, 0, "nothing after");
      }
      assertEquals(
        write(view.subarray(40, 41), toBase64(bytes.subarray(0, 2))),
        -1,
        "does not fit",
      );
      const bad = [
        "AQ",
        "AQ=",
        "AR==",
        "AQJ=",
        "A Q==",
        " AQ=",
        "AQ==\n",
        "AQ\n=",
        "AQ==AQ==",
        "-_8=",
        7,
      ];
      for (const b of bad) {
        assertEquals(write(view, b), -1, String(b));
        assertEquals(fromBase64(b), null, String(b));
      }
      // Canonical only: every last character before one or two "=".
      for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") {
        for (const input of [`AQ${c}=`, `A${c}==`]) {
          assertEquals(write(view, input) >= 0, btoa(atob(input)) === input, input);
        }
      }
    }
  }
});

Deno.test("isHex() accepts exactly byteLength bytes of hex in either case", () => {
  for (const n of [1, 16, 32, 64, 65]) {
    const hex = toHex(rand(n));
    assert(isHex(hex, n), `${n} bytes`);
    assert(isHex(hex.toUpperCase(), n));
    assertEquals(isHex(hex, n + 1), false, "too short");
    assertEquals(isHex(hex + "0", n), false, "odd length");
    for (const bad of ["g", " ", "x", "\u00e9", "\u0130"]) {
      assertEquals(isHex(bad + hex.slice(1), n), false, JSON.stringify(bad));
      assertEquals(isHex(hex.slice(0, -1) + bad, n), false, JSON.stringify(bad));
    }
  }
  assertEquals(isHex(42, 1), false);
  assertEquals(isHex("", 0), true);
});
