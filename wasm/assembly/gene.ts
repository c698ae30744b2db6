// Gene state, mutation orders and commitments. docs/attestation.md is the
// normative description; this file is the only implementation (the server
// runs the same .wasm), so browser and server cannot disagree.

import { B3_CTX_SIZE, B3_READER_SIZE, b3Final32, b3Init, b3ReadByte, b3Reader, b3Update, blake3 } from "./blake3";

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
  for (let i: u32 = 0; i < size; i++) store<u8>(gene + i, b3ReadByte(KS));
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
      // Window indexes advance with a wrap instead of a % per byte (same positions:
      // (off + k) % size), which made these loops several times slower.
      switch (kind) {
        case 0: { // XOR keystream
          let pi = off;
          for (let k: u32 = 0; k < w; k++) {
            const p = gene + pi;
            store<u8>(p, load<u8>(p) ^ b3ReadByte(KS));
            if (++pi == size) pi = 0;
          }
          break;
        }
        case 1: { // ADD keystream
          let pi = off;
          for (let k: u32 = 0; k < w; k++) {
            const p = gene + pi;
            store<u8>(p, <u8>((<u32>load<u8>(p) + <u32>b3ReadByte(KS)) & 0xff));
            if (++pi == size) pi = 0;
          }
          break;
        }
        case 2: { // ROTL by arg % 7 + 1
          const rot = arg % 7 + 1;
          let pi = off;
          for (let k: u32 = 0; k < w; k++) {
            const p = gene + pi;
            store<u8>(p, rotl8(<u32>load<u8>(p), rot));
            if (++pi == size) pi = 0;
          }
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
          let pi = off;
          let qi = off == 0 ? size - 1 : off - 1;
          for (let k: u32 = 0; k < w; k++) {
            const p = gene + pi;
            const v = (<u32>rotl8(<u32>load<u8>(gene + qi), 3)) ^ arg;
            store<u8>(p, <u8>((<u32>load<u8>(p) + v) & 0xff));
            qi = pi;
            if (++pi == size) pi = 0;
          }
          break;
        }
      }
    }
  }
  return true;
}
