// Arithmetic in GF(2^255 − 19), TweetNaCl's representation: 16 signed limbs
// of 16 bits, each held in an i64, little-endian, 128 bytes per element.
// Elements are addressed by pointer into static memory so that nothing here
// allocates (the module runs on the stub runtime, which never frees).
//
// Constant time: every function runs the same instruction sequence and
// touches the same addresses whatever the values; conditional moves use
// masks, carries use arithmetic shifts. The only branches test loop counters
// and public constants (the exponent bits of p − 2 in finv).

import { fmul, fsqr } from "./generated";

export { fmul, fsqr };

/** Bytes per field element. */
export const FE: usize = 128;

// Scratch owned by single functions below; never shared across functions
// that call each other.
const PACK_T: usize = memory.data(128, 8);
const PACK_M: usize = memory.data(128, 8);
const INV_C: usize = memory.data(128, 8);
const PAR_B: usize = memory.data(32, 8);

export function fzero(o: usize): void {
  memory.fill(o, 0, FE);
}

export function fone(o: usize): void {
  memory.fill(o, 0, FE);
  store<i64>(o, 1);
}

export function fcopy(o: usize, a: usize): void {
  memory.copy(o, a, FE);
}

/** o = a + b, limb-wise without carry (TweetNaCl's A). */
export function fadd(o: usize, a: usize, b: usize): void {
  for (let i: usize = 0; i < FE; i += 8) store<i64>(o + i, load<i64>(a + i) + load<i64>(b + i));
}

/** o = a − b, limb-wise without carry (TweetNaCl's Z). */
export function fsub(o: usize, a: usize, b: usize): void {
  for (let i: usize = 0; i < FE; i += 8) store<i64>(o + i, load<i64>(a + i) - load<i64>(b + i));
}

/** o = −a. */
export function fneg(o: usize, a: usize): void {
  for (let i: usize = 0; i < FE; i += 8) store<i64>(o + i, -load<i64>(a + i));
}

/** Sets limbs in [0, 2^16) except for a small overflow folded into limb 0. */
export function fcarry(o: usize): void {
  let c: i64;
  for (let i: usize = 0; i < 16; i++) {
    const p = o + (i << 3);
    const v = load<i64>(p) + 65536;
    c = v >> 16;
    if (i < 15) store<i64>(p + 8, load<i64>(p + 8) + c - 1);
    else store<i64>(o, load<i64>(o) + 38 * (c - 1));
    store<i64>(p, v - (c << 16));
  }
}

/** o = a when flag is 1, unchanged when flag is 0; flag must be 0 or 1. */
export function fcmov(o: usize, a: usize, flag: i64): void {
  const mask = -flag;
  for (let i: usize = 0; i < FE; i += 8) {
    const x = load<i64>(o + i);
    store<i64>(o + i, x ^ (mask & (x ^ load<i64>(a + i))));
  }
}

/** Swaps p and q when flag is 1; flag must be 0 or 1 (TweetNaCl's sel25519). */
export function fcswap(p: usize, q: usize, flag: i64): void {
  const mask = -flag;
  for (let i: usize = 0; i < FE; i += 8) {
    const x = load<i64>(p + i);
    const y = load<i64>(q + i);
    const t = mask & (x ^ y);
    store<i64>(p + i, x ^ t);
    store<i64>(q + i, y ^ t);
  }
}

/** Writes the canonical 32-byte little-endian encoding of n to out. */
export function fpack(out: usize, n: usize): void {
  const t = PACK_T;
  const m = PACK_M;
  fcopy(t, n);
  fcarry(t);
  fcarry(t);
  fcarry(t);
  for (let j = 0; j < 2; j++) {
    store<i64>(m, load<i64>(t) - 0xffed);
    for (let i: usize = 1; i < 15; i++) {
      const prev = load<i64>(m + ((i - 1) << 3));
      store<i64>(m + (i << 3), load<i64>(t + (i << 3)) - 0xffff - ((prev >> 16) & 1));
      store<i64>(m + ((i - 1) << 3), prev & 0xffff);
    }
    const m14 = load<i64>(m + 112);
    store<i64>(m + 120, load<i64>(t + 120) - 0x7fff - ((m14 >> 16) & 1));
    const b = (load<i64>(m + 120) >> 16) & 1;
    store<i64>(m + 112, m14 & 0xffff);
    fcswap(t, m, 1 - b);
  }
  for (let i: usize = 0; i < 16; i++) {
    const v = load<i64>(t + (i << 3));
    store<u8>(out + (i << 1), <u8>(v & 0xff));
    store<u8>(out + (i << 1) + 1, <u8>((v >> 8) & 0xff));
  }
  fzero(t);
  fzero(m);
}

/** Low bit of the canonical encoding (the "sign" of x in point encoding). */
export function fparity(a: usize): u8 {
  fpack(PAR_B, a);
  const bit = load<u8>(PAR_B) & 1;
  memory.fill(PAR_B, 0, 32);
  return bit;
}

/** o = i^(p − 2) = i^−1 (Fermat); o may alias i. */
export function finv(o: usize, i: usize): void {
  const c = INV_C;
  fcopy(c, i);
  for (let a = 253; a >= 0; a--) {
    fsqr(c, c);
    if (a != 2 && a != 4) fmul(c, c, i);
  }
  fcopy(o, c);
  fzero(c);
}
