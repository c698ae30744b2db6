// Low-level exports of the attestation core. wasm/glue.ts wraps them into the
// string/object API of docs/attestation.md ("Browser WASM exports"); nothing
// else should call these directly.
//
// Calling convention: variable-length input goes into the IO buffer
// (io_reserve(len) returns its address, valid until the next io_reserve),
// fixed-size inputs go into the 128-byte ARG area, results come back in the
// 1024-byte OUT area. Integers are passed as parameters (u64 as BigInt).
// Nothing here allocates after io_reserve, so memory never grows during a
// call and no secret is ever copied to a place the glue reads back.

import { blake3 as b3, b3Final32, b3Init, b3Update, B3_CTX_SIZE } from "./blake3";
import { sha512 as s512 } from "./sha512";
import { forgetKey, publicKey, setKeyFromSeed, sign as edSign } from "./ed25519";
import { vmRun } from "./vm";
import { GENE_MAX, geneCommit, geneInit, geneMutate, geneSizeValid, orderRounds } from "./gene";

const ARG: usize = memory.data(128, 16);
const OUT: usize = memory.data(1024, 16);
const IO_MAX: u32 = 16 << 20;
let ioPtr: usize = 0;
let ioCap: u32 = 0;

const COMMITTED: usize = memory.data(<i32>GENE_MAX, 16);
const PREVIEW: usize = memory.data(<i32>GENE_MAX, 16);
const SCRATCH: usize = memory.data(<i32>GENE_MAX, 16);
let committedSize: u32 = 0;
let previewReady = false;

const CHAIN_CTX: usize = memory.data(<i32>B3_CTX_SIZE, 8);
const CHAIN_TMP: usize = memory.data(80, 8);

/** Address of an IO buffer of at least len bytes (0 when len is over 16 MiB). */
export function io_reserve(len: u32): usize {
  if (len > IO_MAX) return 0;
  if (len > ioCap || ioPtr == 0) {
    let cap = ioCap == 0 ? <u32>4096 : ioCap;
    while (cap < len) cap <<= 1;
    // Stub runtime: the IO buffer is the only heap block, so realloc grows it in place.
    ioPtr = ioPtr == 0 ? heap.alloc(cap) : heap.realloc(ioPtr, cap);
    ioCap = cap;
  }
  return ioPtr;
}

export function arg_ptr(): usize {
  return ARG;
}

export function out_ptr(): usize {
  return OUT;
}

/** The 64 KiB buffer of the stateless gene functions (scratch_*). */
export function scratch_ptr(): usize {
  return SCRATCH;
}

// ---- keys ---------------------------------------------------------------

/**
 * Takes a 32-byte seed from ARG[0..32), zeroes it there, replaces (and zeroes)
 * the previous key, writes the public key to OUT[0..32).
 */
export function keypair_from_arg(): i32 {
  setKeyFromSeed(ARG);
  memory.fill(ARG, 0, 128);
  publicKey(OUT);
  return 1;
}

/** Public key to OUT[0..32); 0 when there is no key. */
export function public_key(): i32 {
  return publicKey(OUT) ? 1 : 0;
}

/** Zeroes the private key. */
export function forget_key(): void {
  forgetKey();
}

/** Signs IO[0..len) into OUT[0..64); 0 when there is no key. */
export function sign(len: u32): i32 {
  if (len > ioCap) return 0;
  return edSign(ioPtr, len, OUT) ? 1 : 0;
}

// ---- hashes -------------------------------------------------------------

/** BLAKE3 of IO[0..len) into OUT[0..outLen), outLen ≤ 1024. */
export function blake3(len: u32, outLen: u32): i32 {
  if (len > ioCap || outLen > 1024) return 0;
  b3(ioPtr, len, OUT, outLen);
  return 1;
}

/** SHA-512 of IO[0..len) into OUT[0..64). */
export function sha512(len: u32): i32 {
  if (len > ioCap) return 0;
  s512(ioPtr, len, OUT);
  return 1;
}

/**
 * Hash-chain step. ARG = salt (16) ‖ prev (32); IO = entropy JSON ‖ stack JSON.
 * OUT[0..32) = BLAKE3(salt ‖ prev ‖ ts u64 LE ‖ BLAKE3(entropy) ‖ BLAKE3(stack)).
 */
export function next_hash(ts: u64, entropyLen: u32, stackLen: u32): i32 {
  if (<u64>entropyLen + <u64>stackLen > <u64>ioCap) return 0;
  b3(ioPtr, entropyLen, CHAIN_TMP + 8, 32);
  b3(ioPtr + entropyLen, stackLen, CHAIN_TMP + 40, 32);
  store<u64>(CHAIN_TMP, ts);
  b3Init(CHAIN_CTX);
  b3Update(CHAIN_CTX, ARG, 48);
  b3Update(CHAIN_CTX, CHAIN_TMP, 72);
  b3Final32(CHAIN_CTX, OUT);
  return 1;
}

// ---- VM -----------------------------------------------------------------

/** Runs the program in IO[0..len). OUT = ip u32 ‖ depth u32 ‖ stack u32[depth]. */
export function vm_run(len: u32): i32 {
  if (len > ioCap) return 0;
  return vmRun(ioPtr, len, OUT) ? 1 : 0;
}

// ---- gene state (browser, stateful) --------------------------------------

export function gene_init(size: u32): i32 {
  if (!geneSizeValid(size)) return 0;
  memory.fill(COMMITTED, 0, GENE_MAX);
  memory.fill(PREVIEW, 0, GENE_MAX);
  geneInit(COMMITTED, size);
  committedSize = size;
  previewReady = false;
  return 1;
}

export function gene_size(): u32 {
  return committedSize;
}

/**
 * PREVIEW = COMMITTED mutated by the order in IO[0..orderLen) for session ARG[0..32)
 * and step; OUT[0..32) = its commitment. A failed preview leaves no preview.
 */
export function gene_preview(orderLen: u32, step: u64, rounds: u32): i32 {
  previewReady = false;
  if (committedSize == 0 || orderLen > ioCap) return 0;
  memory.copy(PREVIEW, COMMITTED, committedSize);
  if (!geneMutate(PREVIEW, committedSize, ioPtr, orderLen, ARG, step, rounds)) return 0;
  geneCommit(PREVIEW, committedSize, ARG, step, OUT);
  previewReady = true;
  return 1;
}

export function gene_commit(): i32 {
  if (!previewReady) return 0;
  memory.copy(COMMITTED, PREVIEW, committedSize);
  previewReady = false;
  return 1;
}

export function gene_discard(): void {
  previewReady = false;
}

/** OUT[0..32) = commitment of COMMITTED for session ARG[0..32) and step. */
export function gene_current(step: u64): i32 {
  if (committedSize == 0) return 0;
  geneCommit(COMMITTED, committedSize, ARG, step, OUT);
  return 1;
}

// ---- gene state (server, stateless on SCRATCH) ---------------------------

/** Rounds of the order in IO[0..len), 0 when malformed. */
export function order_rounds(len: u32): u32 {
  if (len > ioCap) return 0;
  return orderRounds(ioPtr, len);
}

export function scratch_init(size: u32): i32 {
  return geneInit(SCRATCH, size) ? 1 : 0;
}

/** Mutates SCRATCH[0..size) by the order in IO for session ARG[0..32) and step. */
export function scratch_mutate(size: u32, orderLen: u32, step: u64, rounds: u32): i32 {
  if (orderLen > ioCap) return 0;
  return geneMutate(SCRATCH, size, ioPtr, orderLen, ARG, step, rounds) ? 1 : 0;
}

/** OUT[0..32) = commitment of SCRATCH[0..size) for session ARG[0..32) and step. */
export function scratch_commit(size: u32, step: u64): i32 {
  if (!geneSizeValid(size)) return 0;
  geneCommit(SCRATCH, size, ARG, step, OUT);
  return 1;
}
