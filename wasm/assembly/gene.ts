// Gene state, mutation orders and commitments. docs/attestation.md is the
// normative description; this file is the only implementation (the server
// runs the same .wasm), so browser and server cannot disagree.

import {
  B3_CTX_SIZE,
  B3_READER_SIZE,
  b3Buffer,
  b3Consume,
  b3Final32,
  b3Init,
  b3Read,
  b3ReadByte,
  b3Reader,
  b3Refill,
  b3Update,
  blake3,
} from "./blake3";

export const GENE_MIN: u32 = 64;
export const GENE_MAX: u32 = 65536;

export const ORDER_VERSION: u8 = 1;
export const ORDER_MAX_ROUNDS: u32 = 16;
export const ORDER_MAX_OPS: u32 = 32;
const ORDER_HEADER: u32 = 3;
const OP_SIZE: u32 = 5;
const OP_KINDS: u32 = 6;

// Domain tags (ASCII, no terminator; each use has a fixed-length layout).
const TAG_INIT = memory.data<u8>([
  // "palisade.attest.v1.gene-init"
  0x70, 0x61, 0x6c, 0x69, 0x73, 0x61, 0x64, 0x65, 0x2e, 0x61, 0x74, 0x74, 0x65, 0x73, 0x74, 0x2e,
  0x76, 0x31, 0x2e, 0x67, 0x65, 0x6e, 0x65, 0x2d, 0x69, 0x6e, 0x69, 0x74,
]);
const TAG_INIT_LEN: usize = 28;
const TAG_COMMIT = memory.data<u8>([
  // "palisade.attest.v1.gene-commit"
  0x70, 0x61, 0x6c, 0x69, 0x73, 0x61, 0x64, 0x65, 0x2e, 0x61, 0x74, 0x74, 0x65, 0x73, 0x74, 0x2e,
  0x76, 0x31, 0x2e, 0x67, 0x65, 0x6e, 0x65, 0x2d, 0x63, 0x6f, 0x6d, 0x6d, 0x69, 0x74,
]);
const TAG_COMMIT_LEN: usize = 30;
const TAG_KS = memory.data<u8>([
  // "palisade.attest.v1.mutation-keystream"
  0x70, 0x61, 0x6c, 0x69, 0x73, 0x61, 0x64, 0x65, 0x2e, 0x61, 0x74, 0x74, 0x65, 0x73, 0x74, 0x2e,
  0x76, 0x31, 0x2e, 0x6d, 0x75, 0x74, 0x61, 0x74, 0x69, 0x6f, 0x6e, 0x2d, 0x6b, 0x65, 0x79, 0x73,
  0x74, 0x72, 0x65, 0x61, 0x6d,
]);
const TAG_KS_LEN: usize = 37;

const CTX: usize = memory.data(<i32>B3_CTX_SIZE, 8);
const KS: usize = memory.data(<i32>B3_READER_SIZE, 8);
const SMALL: usize = memory.data(16, 8);
const ORDER_HASH: usize = memory.data(32, 8);
const GENE_HASH: usize = memory.data(32, 8);

export function geneSizeValid(size: u32): bool {
  return size >= GENE_MIN && size <= GENE_MAX;
}

/** gene[0..size) = BLAKE3-XOF(TAG_INIT ‖ size u32 LE), first size bytes. */
export function geneInit(gene: usize, size: u32): bool {
  if (!geneSizeValid(size)) return false;
  b3Init(CTX);
  b3Update(CTX, TAG_INIT, TAG_INIT_LEN);
  store<u32>(SMALL, size);
  b3Update(CTX, SMALL, 4);
  b3Reader(CTX, KS);
  b3Read(KS, gene, size);
  return true;
}

/** out = BLAKE3(TAG_COMMIT ‖ session_id (32) ‖ step u64 LE ‖ size u32 LE ‖ gene). */
export function geneCommit(gene: usize, size: u32, sid: usize, step: u64, out: usize): void {
  b3Init(CTX);
  b3Update(CTX, TAG_COMMIT, TAG_COMMIT_LEN);
  b3Update(CTX, sid, 32);
  store<u64>(SMALL, step);
  store<u32>(SMALL + 8, size);
  b3Update(CTX, SMALL, 12);
  b3Update(CTX, gene, size);
  b3Final32(CTX, out);
}

/** Rounds of a well-formed order, 0 when the order is malformed. */
export function orderRounds(order: usize, len: u32): u32 {
  if (len < ORDER_HEADER + OP_SIZE) return 0;
  if (load<u8>(order) != ORDER_VERSION) return 0;
  const rounds = <u32>load<u8>(order + 1);
  const ops = <u32>load<u8>(order + 2);
  if (rounds < 1 || rounds > ORDER_MAX_ROUNDS) return 0;
  if (ops < 1 || ops > ORDER_MAX_OPS) return 0;
  if (len != ORDER_HEADER + ops * OP_SIZE) return 0;
  for (let i: u32 = 0; i < ops; i++) {
    if (<u32>load<u8>(order + ORDER_HEADER + i * OP_SIZE) >= OP_KINDS) return 0;
  }
  return rounds;
}

@inline function rotl8(v: u32, r: u32): u8 {
  return <u8>(((v << r) | (v >> (8 - r))) & 0xff);
}

// The ops below work on runs of contiguous bytes, eight at a time where they
// can: byte by byte, with a call per keystream byte and a wrap check per
// position, they were most of a heartbeat's mutation cost. The result is the
// same byte for byte (docs/attestation.md and wasm/testdata/reference.ts).
const LO7: u64 = 0x7f7f7f7f7f7f7f7f;
const HI1: u64 = 0x8080808080808080;
const ONES: u64 = 0x0101010101010101;

/** run[0..n) ^= (or, with add, += byte-wise) the next n keystream bytes, in order. */
@inline function ksCombine(run: usize, n: u32, add: bool): void {
  while (n > 0) {
    const pos = b3Refill(KS);
    let m: u32 = 64 - pos;
    if (m > n) m = n;
    const ks = b3Buffer(KS) + pos;
    let i: u32 = 0;
    for (; i + 8 <= m; i += 8) {
      const a = load<u64>(run + i);
      const b = load<u64>(ks + i);
      // Byte-wise ADD in a word: the low 7 bits of each byte add without reaching
      // the next byte; the top bit is then the XOR of both top bits and that carry.
      store<u64>(run + i, add ? ((a & LO7) + (b & LO7)) ^ ((a ^ b) & HI1) : a ^ b);
    }
    for (; i < m; i++) {
      const a = load<u8>(run + i);
      const b = load<u8>(ks + i);
      store<u8>(run + i, add ? a + b : a ^ b);
    }
    b3Consume(KS, m);
    run += m;
    n -= m;
  }
}

/** Rotates each byte of run[0..n) left by rot (1..7). */
function rotlRun(run: usize, n: u32, rot: u32): void {
  // In a word, the bits a byte shifts into its neighbour are masked off.
  const hi = ONES * <u64>((0xff << rot) & 0xff);
  const lo = ONES * <u64>(0xff >> (8 - rot));
  let i: u32 = 0;
  for (; i + 8 <= n; i += 8) {
    const x = load<u64>(run + i);
    store<u64>(run + i, ((x << <u64>rot) & hi) | ((x >> <u64>(8 - rot)) & lo));
  }
  for (; i < n; i++) store<u8>(run + i, rotl8(<u32>load<u8>(run + i), rot));
}

/** CHAIN over a run, prev being the (updated) byte before it; returns the run's last byte. */
function chainRun(run: usize, n: u32, prev: u32, arg: u32): u32 {
  for (let i: u32 = 0; i < n; i++) {
    const v = (<u32>load<u8>(run + i) + ((<u32>rotl8(prev, 3)) ^ arg)) & 0xff;
    store<u8>(run + i, <u8>v);
    prev = v;
  }
  return prev;
}

/**
 * Applies the order to gene[0..size) in place. rounds must equal the order's
 * header byte, or be 0 to take it from the header. Returns false (gene
 * untouched) when anything is malformed.
 */
export function geneMutate(gene: usize, size: u32, order: usize, orderLen: u32, sid: usize, step: u64, rounds: u32): bool {
  if (!geneSizeValid(size)) return false;
  const header = orderRounds(order, orderLen);
  if (header == 0) return false;
  if (rounds != 0 && rounds != header) return false;
  const ops = <u32>load<u8>(order + 2);
  blake3(order, orderLen, ORDER_HASH, 32);
  for (let r: u32 = 0; r < header; r++) {
    blake3(gene, size, GENE_HASH, 32);
    // Keystream for this round: BLAKE3-XOF(TAG_KS ‖ sid ‖ step ‖ round ‖ H(order) ‖ H(gene)).
    b3Init(CTX);
    b3Update(CTX, TAG_KS, TAG_KS_LEN);
    b3Update(CTX, sid, 32);
    store<u64>(SMALL, step);
    store<u8>(SMALL + 8, <u8>r);
    b3Update(CTX, SMALL, 9);
    b3Update(CTX, ORDER_HASH, 32);
    b3Update(CTX, GENE_HASH, 32);
    b3Reader(CTX, KS);
    for (let i: u32 = 0; i < ops; i++) {
      const op = order + ORDER_HEADER + i * OP_SIZE;
      const kind = <u32>load<u8>(op);
      const off = (<u32>load<u8>(op + 1) | (<u32>load<u8>(op + 2) << 8)) % size;
      let w = <u32>load<u8>(op + 3) + 1;
      if (w > size) w = size;
      const arg = <u32>load<u8>(op + 4);
      // The window (off + k) % size, k < w, as the runs [off, off + first) and [0, w − first).
      const first = w < size - off ? w : size - off;
      // SWAP and REVERSE stay byte by byte with a wrap instead of a % per byte:
      // SWAP's two windows may overlap, so its order matters.
      switch (kind) {
        case 0: { // XOR keystream
          ksCombine(gene + off, first, false);
          ksCombine(gene, w - first, false);
          break;
        }
        case 1: { // ADD keystream
          ksCombine(gene + off, first, true);
          ksCombine(gene, w - first, true);
          break;
        }
        case 2: { // ROTL by arg % 7 + 1
          const rot = arg % 7 + 1;
          rotlRun(gene + off, first, rot);
          rotlRun(gene, w - first, rot);
          break;
        }
        case 3: { // SWAP with a window at a keystream-chosen offset
          const lo = <u32>b3ReadByte(KS);
          const hi = <u32>b3ReadByte(KS);
          let qi = (lo | (hi << 8)) % size;
          let pi = off;
          for (let k: u32 = 0; k < w; k++) {
            const p = gene + pi;
            const q = gene + qi;
            const t = load<u8>(p);
            store<u8>(p, load<u8>(q));
            store<u8>(q, t);
            if (++pi == size) pi = 0;
            if (++qi == size) qi = 0;
          }
          break;
        }
        case 4: { // REVERSE the window
          let pi = off;
          let qi = (off + w - 1) % size;
          for (let k: u32 = 0; k < w / 2; k++) {
            const p = gene + pi;
            const q = gene + qi;
            const t = load<u8>(p);
            store<u8>(p, load<u8>(q));
            store<u8>(q, t);
            if (++pi == size) pi = 0;
            qi = qi == 0 ? size - 1 : qi - 1;
          }
          break;
        }
        default: { // 5 CHAIN: g[p] += rotl8(g[p − 1], 3) ^ arg, left to right
          const prev = <u32>load<u8>(gene + (off == 0 ? size - 1 : off - 1));
          chainRun(gene, w - first, chainRun(gene + off, first, prev, arg), arg);
          break;
        }
      }
    }
  }
  return true;
}
