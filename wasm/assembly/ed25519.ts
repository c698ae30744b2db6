// Ed25519 signing (RFC 8032, pure Ed25519), without verification.
//
// Constant time. The secret scalar (and the per-signature nonce r) only ever
// flows through:
//  - field arithmetic of ./field (straight-line, no secret branches),
//  - a signed radix-16 recoding done with arithmetic shifts,
//  - a fixed-base comb (ref10's ge_scalarmult_base): 64 additions of table
//    entries whose *position* is public (the digit index) and whose entry is
//    picked by scanning all 8 candidates with masked moves, then a masked
//    conditional negation,
//  - TweetNaCl's modL with fixed loop bounds and arithmetic carries.
// No branch and no memory address depends on a secret. The table holds
// multiples of the base point (public) and is computed once on first use.
//
// Point representation: extended coordinates (X:Y:Z:T), x = X/Z, y = Y/Z,
// xy = T/Z; table entries in "cached" form (Y+X, Y−X, Z, 2d·T). Formulas are
// add-2008-hwcd-3 and dbl-2008-hwcd (a = −1), complete on this curve.

import {
  FE,
  fadd,
  fcmov,
  fcopy,
  finv,
  fmul,
  fneg,
  fone,
  fpack,
  fparity,
  fsqr,
  fsub,
  fzero,
} from "./field";
import { sha512, sha512Final, sha512Init, sha512Update } from "./sha512";

const P3: usize = 4 * FE; // X, Y, Z, T
const CACHED: usize = 4 * FE; // Y+X, Y−X, Z, 2dT

const D2: usize = memory.data<i64>([
  0xf159, 0x26b2, 0x9b94, 0xebd6, 0xb156, 0x8283, 0x149a, 0x00e0,
  0xd130, 0xeef3, 0x80f2, 0x198e, 0xfce7, 0x56df, 0xd9dc, 0x2406,
]);
const BX: usize = memory.data<i64>([
  0xd51a, 0x8f25, 0x2d60, 0xc956, 0xa7b2, 0x9525, 0xc760, 0x692c,
  0xdc5c, 0xfdd6, 0xe231, 0xc0a4, 0x53fe, 0xcd6e, 0x36d3, 0x2169,
]);
const BY: usize = memory.data<i64>([
  0x6658, 0x6666, 0x6666, 0x6666, 0x6666, 0x6666, 0x6666, 0x6666,
  0x6666, 0x6666, 0x6666, 0x6666, 0x6666, 0x6666, 0x6666, 0x6666,
]);
// The group order L, little-endian bytes as i64 (TweetNaCl's L).
const L: usize = memory.data<i64>([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);

// Comb table: TABLE[pos][j] = (j + 1) · 256^pos · B, pos < 32, j < 8, cached form.
const TABLE: usize = memory.data(<i32>(32 * 8) * <i32>CACHED, 8);
let tableReady = false;

// Scratch field elements for point formulas (shared by add/dbl, which never nest).
const FA: usize = memory.data(<i32>FE, 8);
const FB: usize = memory.data(<i32>FE, 8);
const FC: usize = memory.data(<i32>FE, 8);
const FD: usize = memory.data(<i32>FE, 8);
const FEE: usize = memory.data(<i32>FE, 8);
const FF: usize = memory.data(<i32>FE, 8);
const FG: usize = memory.data(<i32>FE, 8);
const FH: usize = memory.data(<i32>FE, 8);
// Working points.
const ACC: usize = memory.data(<i32>P3, 8);
const SEL: usize = memory.data(<i32>CACHED, 8);
const NEGSEL: usize = memory.data(<i32>CACHED, 8);
const PT: usize = memory.data(<i32>P3, 8);
const PZI: usize = memory.data(<i32>FE, 8);
const PX: usize = memory.data(<i32>FE, 8);
const PY: usize = memory.data(<i32>FE, 8);
// Signed radix-16 digits of the scalar being multiplied.
const DIGITS: usize = memory.data(64 * 8, 8);
// modL working array (64 i64).
const MODX: usize = memory.data(64 * 8, 8);

@inline function X(p: usize): usize { return p; }
@inline function Y(p: usize): usize { return p + FE; }
@inline function Z(p: usize): usize { return p + 2 * FE; }
@inline function T(p: usize): usize { return p + 3 * FE; }

function p3Identity(p: usize): void {
  fzero(X(p));
  fone(Y(p));
  fone(Z(p));
  fzero(T(p));
}

function toCached(c: usize, p: usize): void {
  fadd(X(c), Y(p), X(p));
  fsub(Y(c), Y(p), X(p));
  fcopy(Z(c), Z(p));
  fmul(T(c), T(p), D2);
}

/** r = p + q (q cached). r may alias p. */
function addCached(r: usize, p: usize, q: usize): void {
  fsub(FA, Y(p), X(p));
  fmul(FA, FA, Y(q));
  fadd(FB, Y(p), X(p));
  fmul(FB, FB, X(q));
  fmul(FC, T(p), T(q));
  fmul(FD, Z(p), Z(q));
  fadd(FD, FD, FD);
  fsub(FEE, FB, FA);
  fsub(FF, FD, FC);
  fadd(FG, FD, FC);
  fadd(FH, FB, FA);
  fmul(X(r), FEE, FF);
  fmul(Y(r), FG, FH);
  fmul(T(r), FEE, FH);
  fmul(Z(r), FF, FG);
}

/** r = 2p. r may alias p. */
function dbl(r: usize, p: usize): void {
  fsqr(FA, X(p));
  fsqr(FB, Y(p));
  fsqr(FC, Z(p));
  fadd(FC, FC, FC);
  fneg(FD, FA); // D = a·A with a = −1
  fadd(FEE, X(p), Y(p));
  fsqr(FEE, FEE);
  fsub(FEE, FEE, FA);
  fsub(FEE, FEE, FB);
  fadd(FG, FD, FB);
  fsub(FF, FG, FC);
  fsub(FH, FD, FB);
  fmul(X(r), FEE, FF);
  fmul(Y(r), FG, FH);
  fmul(T(r), FEE, FH);
  fmul(Z(r), FF, FG);
}

function buildTable(): void {
  // PT walks through 256^pos · B.
  fcopy(X(PT), BX);
  fcopy(Y(PT), BY);
  fone(Z(PT));
  fmul(T(PT), BX, BY);
  for (let pos: usize = 0; pos < 32; pos++) {
    const row = TABLE + pos * 8 * CACHED;
    toCached(row, PT);
    fcopy(X(ACC), X(PT));
    fcopy(Y(ACC), Y(PT));
    fcopy(Z(ACC), Z(PT));
    fcopy(T(ACC), T(PT));
    for (let j: usize = 1; j < 8; j++) {
      addCached(ACC, ACC, row);
      toCached(row + j * CACHED, ACC);
    }
    for (let k = 0; k < 8; k++) dbl(PT, PT);
  }
  tableReady = true;
}

/** 1 when a == b, else 0, for 0 ≤ a, b < 2^62, without branches. */
@inline function eqFlag(a: i64, b: i64): i64 {
  return <i64>(<u64>((a ^ b) - 1) >> 63);
}

/** SEL = digit · TABLE[pos][·], digit in [−8, 8], in constant time. */
function select(pos: usize, digit: i64): void {
  const neg = <i64>(<u64>digit >> 63);
  const abs = digit - ((-neg & digit) << 1);
  fone(X(SEL));
  fone(Y(SEL));
  fone(Z(SEL));
  fzero(T(SEL));
  const row = TABLE + pos * 8 * CACHED;
  for (let j: usize = 0; j < 8; j++) {
    const flag = eqFlag(abs, <i64>(j + 1));
    const e = row + j * CACHED;
    fcmov(X(SEL), X(e), flag);
    fcmov(Y(SEL), Y(e), flag);
    fcmov(Z(SEL), Z(e), flag);
    fcmov(T(SEL), T(e), flag);
  }
  // −P swaps Y+X with Y−X and negates 2dT.
  fcopy(X(NEGSEL), Y(SEL));
  fcopy(Y(NEGSEL), X(SEL));
  fcopy(Z(NEGSEL), Z(SEL));
  fneg(T(NEGSEL), T(SEL));
  fcmov(X(SEL), X(NEGSEL), neg);
  fcmov(Y(SEL), Y(NEGSEL), neg);
  fcmov(T(SEL), T(NEGSEL), neg);
}

/** ACC = a · B for a 32-byte little-endian scalar with a[31] ≤ 127. */
function scalarmultBase(a: usize): void {
  if (!tableReady) buildTable();
  for (let i: usize = 0; i < 32; i++) {
    const v = <i64>load<u8>(a + i);
    store<i64>(DIGITS + (i << 4), v & 15);
    store<i64>(DIGITS + (i << 4) + 8, (v >> 4) & 15);
  }
  let carry: i64 = 0;
  for (let i: usize = 0; i < 63; i++) {
    let e = load<i64>(DIGITS + (i << 3)) + carry;
    carry = (e + 8) >> 4;
    e -= carry << 4;
    store<i64>(DIGITS + (i << 3), e);
  }
  store<i64>(DIGITS + 504, load<i64>(DIGITS + 504) + carry);

  p3Identity(ACC);
  for (let i: usize = 1; i < 64; i += 2) {
    select(i >> 1, load<i64>(DIGITS + (i << 3)));
    addCached(ACC, ACC, SEL);
  }
  dbl(ACC, ACC);
  dbl(ACC, ACC);
  dbl(ACC, ACC);
  dbl(ACC, ACC);
  for (let i: usize = 0; i < 64; i += 2) {
    select(i >> 1, load<i64>(DIGITS + (i << 3)));
    addCached(ACC, ACC, SEL);
  }
}

/** 32-byte encoding of point p (y with the sign of x in the top bit). */
function packPoint(out: usize, p: usize): void {
  finv(PZI, Z(p));
  fmul(PX, X(p), PZI);
  fmul(PY, Y(p), PZI);
  fpack(out, PY);
  store<u8>(out + 31, load<u8>(out + 31) ^ (fparity(PX) << 7));
}

/** r (32 bytes) = x mod L for x given as 64 i64 "digits" in MODX (TweetNaCl's modL). */
function modL(r: usize, x: usize): void {
  let carry: i64;
  for (let i: i32 = 63; i >= 32; i--) {
    carry = 0;
    const xi = load<i64>(x + (<usize>i << 3));
    let j: i32 = i - 32;
    for (; j < i - 12; j++) {
      const p = x + (<usize>j << 3);
      let v = load<i64>(p) + carry - 16 * xi * load<i64>(L + (<usize>(j - (i - 32)) << 3));
      carry = (v + 128) >> 8;
      v -= carry << 8;
      store<i64>(p, v);
    }
    const p = x + (<usize>j << 3);
    store<i64>(p, load<i64>(p) + carry);
    store<i64>(x + (<usize>i << 3), 0);
  }
  carry = 0;
  const top = load<i64>(x + 248) >> 4;
  for (let j: usize = 0; j < 32; j++) {
    const p = x + (j << 3);
    const v = load<i64>(p) + carry - top * load<i64>(L + (j << 3));
    carry = v >> 8;
    store<i64>(p, v & 255);
  }
  for (let j: usize = 0; j < 32; j++) {
    const p = x + (j << 3);
    store<i64>(p, load<i64>(p) - carry * load<i64>(L + (j << 3)));
  }
  for (let i: usize = 0; i < 32; i++) {
    const p = x + (i << 3);
    const v = load<i64>(p);
    store<i64>(p + 8, load<i64>(p + 8) + (v >> 8));
    store<u8>(r + i, <u8>(v & 255));
  }
  memory.fill(x, 0, 512);
}

/** r (32 bytes) = the 64-byte little-endian integer at h, mod L. */
function reduce(r: usize, h: usize): void {
  for (let i: usize = 0; i < 64; i++) store<i64>(MODX + (i << 3), <i64>load<u8>(h + i));
  modL(r, MODX);
}

// Key material: seed, clamped scalar, hash prefix, public key. Never exported.
const SEED: usize = memory.data(32, 8);
const SCALAR: usize = memory.data(32, 8);
const PREFIX: usize = memory.data(32, 8);
const PUB: usize = memory.data(32, 8);
let hasKey = false;

const H64: usize = memory.data(64, 8);
const NONCE: usize = memory.data(32, 8);
const HRAM: usize = memory.data(32, 8);

/** Overwrites every buffer that held secret-derived values during a computation. */
function wipeScratch(): void {
  memory.fill(H64, 0, 64);
  memory.fill(NONCE, 0, 32);
  memory.fill(HRAM, 0, 32);
  memory.fill(DIGITS, 0, 512);
  memory.fill(MODX, 0, 512);
  memory.fill(ACC, 0, <i32>P3);
  memory.fill(SEL, 0, <i32>CACHED);
  memory.fill(NEGSEL, 0, <i32>CACHED);
  fzero(FA);
  fzero(FB);
  fzero(FC);
  fzero(FD);
  fzero(FEE);
  fzero(FF);
  fzero(FG);
  fzero(FH);
  fzero(PZI);
  fzero(PX);
  fzero(PY);
}

/** Zeroes the stored key. */
export function forgetKey(): void {
  memory.fill(SEED, 0, 32);
  memory.fill(SCALAR, 0, 32);
  memory.fill(PREFIX, 0, 32);
  memory.fill(PUB, 0, 32);
  hasKey = false;
}

/** Replaces the key with the one derived from the 32-byte seed (RFC 8032 5.1.5). */
export function setKeyFromSeed(seed: usize): void {
  forgetKey();
  memory.copy(SEED, seed, 32);
  sha512(SEED, 32, H64);
  memory.copy(SCALAR, H64, 32);
  memory.copy(PREFIX, H64 + 32, 32);
  store<u8>(SCALAR, load<u8>(SCALAR) & 248);
  store<u8>(SCALAR + 31, (load<u8>(SCALAR + 31) & 127) | 64);
  scalarmultBase(SCALAR);
  packPoint(PUB, ACC);
  hasKey = true;
  wipeScratch();
}

export function keyPresent(): bool {
  return hasKey;
}

/** Copies the public key (32 bytes) to out; false when there is no key. */
export function publicKey(out: usize): bool {
  if (!hasKey) return false;
  memory.copy(out, PUB, 32);
  return true;
}

/** Writes the 64-byte signature of [msg, msg + len) to out (RFC 8032 5.1.6). */
export function sign(msg: usize, len: usize, out: usize): bool {
  if (!hasKey) return false;
  sha512Init();
  sha512Update(PREFIX, 32);
  sha512Update(msg, len);
  sha512Final(H64);
  reduce(NONCE, H64);
  scalarmultBase(NONCE);
  packPoint(out, ACC);
  sha512Init();
  sha512Update(out, 32);
  sha512Update(PUB, 32);
  sha512Update(msg, len);
  sha512Final(H64);
  reduce(HRAM, H64);
  // S = (r + k·s) mod L, schoolbook product in 64 i64 columns.
  memory.fill(MODX, 0, 512);
  for (let i: usize = 0; i < 32; i++) store<i64>(MODX + (i << 3), <i64>load<u8>(NONCE + i));
  for (let i: usize = 0; i < 32; i++) {
    const k = <i64>load<u8>(HRAM + i);
    for (let j: usize = 0; j < 32; j++) {
      const p = MODX + ((i + j) << 3);
      store<i64>(p, load<i64>(p) + k * <i64>load<u8>(SCALAR + j));
    }
  }
  modL(out + 32, MODX);
  wipeScratch();
  return true;
}
