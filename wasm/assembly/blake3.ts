// BLAKE3 hash mode (no key, no derive_key), streaming, with extendable
// output. Follows the structure of the reference implementation
// (github.com/BLAKE3-team/BLAKE3, reference_impl): a chunk state, a stack of
// chaining values merged by the chunk count, and a root output node that can
// be squeezed for any number of bytes. Contexts live at caller-chosen
// addresses so that two hashes can be in flight (e.g. hashing the gene while
// a keystream reader is open).

import { b3compress } from "./generated";

const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const PARENT: u32 = 4;
const ROOT: u32 = 8;
const CHUNK_LEN: u32 = 1024;

const IV: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

// Context layout.
const C_CV: usize = 0; // 8 words
const C_COUNTER: usize = 32; // u64 chunk counter
const C_BLOCK_LEN: usize = 40; // u32
const C_BLOCKS: usize = 44; // u32 blocks compressed in this chunk
const C_STACK_LEN: usize = 48; // u32
const C_BLOCK: usize = 64; // 64 bytes
const C_STACK: usize = 128; // 54 chaining values of 32 bytes
/** Bytes of a hasher context. */
export const B3_CTX_SIZE: usize = 128 + 54 * 32;

// Output node layout (a compression input that has not been run yet).
const O_CV: usize = 0; // 8 words
const O_BLOCK: usize = 32; // 16 words
const O_COUNTER: usize = 96; // u64
const O_BLOCK_LEN: usize = 104; // u32
const O_FLAGS: usize = 108; // u32
const O_SIZE: usize = 112;

// Reader layout: an output node, the next output block counter, a 64-byte
// buffer of squeezed bytes and the read position in it.
const R_NEXT: usize = O_SIZE; // u64
const R_POS: usize = O_SIZE + 8; // u32
const R_BUF: usize = O_SIZE + 16; // 64 bytes
/** Bytes of an output reader. */
export const B3_READER_SIZE: usize = O_SIZE + 16 + 64;

const TMP: usize = memory.data(64, 8);
const NODE: usize = memory.data(<i32>O_SIZE, 8);
const CV_TMP: usize = memory.data(32, 8);

export function b3Init(ctx: usize): void {
  memory.copy(ctx + C_CV, IV, 32);
  store<u64>(ctx + C_COUNTER, 0);
  store<u32>(ctx + C_BLOCK_LEN, 0);
  store<u32>(ctx + C_BLOCKS, 0);
  store<u32>(ctx + C_STACK_LEN, 0);
  memory.fill(ctx + C_BLOCK, 0, 64);
}

@inline function chunkLen(ctx: usize): u32 {
  return (load<u32>(ctx + C_BLOCKS) << 6) + load<u32>(ctx + C_BLOCK_LEN);
}

@inline function startFlag(ctx: usize): u32 {
  return load<u32>(ctx + C_BLOCKS) == 0 ? CHUNK_START : 0;
}

function chunkUpdate(ctx: usize, p: usize, len: usize): void {
  while (len > 0) {
    let blockLen = load<u32>(ctx + C_BLOCK_LEN);
    if (blockLen == 64) {
      b3compress(ctx + C_CV, ctx + C_BLOCK, load<u64>(ctx + C_COUNTER), 64, startFlag(ctx), TMP);
      memory.copy(ctx + C_CV, TMP, 32);
      store<u32>(ctx + C_BLOCKS, load<u32>(ctx + C_BLOCKS) + 1);
      memory.fill(ctx + C_BLOCK, 0, 64);
      blockLen = 0;
    }
    let take: usize = 64 - <usize>blockLen;
    if (take > len) take = len;
    memory.copy(ctx + C_BLOCK + blockLen, p, take);
    store<u32>(ctx + C_BLOCK_LEN, blockLen + <u32>take);
    p += take;
    len -= take;
  }
}

/** Fills node with the current chunk's output (not yet compressed). */
function chunkOutput(ctx: usize, node: usize): void {
  memory.copy(node + O_CV, ctx + C_CV, 32);
  memory.copy(node + O_BLOCK, ctx + C_BLOCK, 64);
  store<u64>(node + O_COUNTER, load<u64>(ctx + C_COUNTER));
  store<u32>(node + O_BLOCK_LEN, load<u32>(ctx + C_BLOCK_LEN));
  store<u32>(node + O_FLAGS, startFlag(ctx) | CHUNK_END);
}

/** out (32 bytes) = chaining value of node. */
function nodeCv(node: usize, out: usize): void {
  b3compress(
    node + O_CV,
    node + O_BLOCK,
    load<u64>(node + O_COUNTER),
    load<u32>(node + O_BLOCK_LEN),
    load<u32>(node + O_FLAGS),
    TMP,
  );
  memory.copy(out, TMP, 32);
}

/** Makes node the parent of left and right chaining values (right may live in CV_TMP). */
function parentNode(node: usize, left: usize, right: usize): void {
  memory.copy(node + O_BLOCK, left, 32);
  memory.copy(node + O_BLOCK + 32, right, 32);
  memory.copy(node + O_CV, IV, 32);
  store<u64>(node + O_COUNTER, 0);
  store<u32>(node + O_BLOCK_LEN, 64);
  store<u32>(node + O_FLAGS, PARENT);
}

function pushChunkCv(ctx: usize, cv: usize, totalChunks: u64): void {
  // Merge completed subtrees: as many as there are trailing zero bits.
  while ((totalChunks & 1) == 0) {
    const len = load<u32>(ctx + C_STACK_LEN) - 1;
    store<u32>(ctx + C_STACK_LEN, len);
    parentNode(NODE, ctx + C_STACK + (<usize>len << 5), cv);
    nodeCv(NODE, cv);
    totalChunks >>= 1;
  }
  const len = load<u32>(ctx + C_STACK_LEN);
  memory.copy(ctx + C_STACK + (<usize>len << 5), cv, 32);
  store<u32>(ctx + C_STACK_LEN, len + 1);
}

export function b3Update(ctx: usize, p: usize, len: usize): void {
  while (len > 0) {
    if (chunkLen(ctx) == CHUNK_LEN) {
      chunkOutput(ctx, NODE);
      nodeCv(NODE, CV_TMP);
      const total = load<u64>(ctx + C_COUNTER) + 1;
      pushChunkCv(ctx, CV_TMP, total);
      memory.copy(ctx + C_CV, IV, 32);
      store<u64>(ctx + C_COUNTER, total);
      store<u32>(ctx + C_BLOCK_LEN, 0);
      store<u32>(ctx + C_BLOCKS, 0);
      memory.fill(ctx + C_BLOCK, 0, 64);
    }
    let take = <usize>(CHUNK_LEN - chunkLen(ctx));
    if (take > len) take = len;
    chunkUpdate(ctx, p, take);
    p += take;
    len -= take;
  }
}

/** Opens an output reader on the root node of ctx; ctx itself is left untouched. */
export function b3Reader(ctx: usize, reader: usize): void {
  chunkOutput(ctx, reader);
  let remaining = load<u32>(ctx + C_STACK_LEN);
  while (remaining > 0) {
    remaining--;
    nodeCv(reader, CV_TMP);
    parentNode(reader, ctx + C_STACK + (<usize>remaining << 5), CV_TMP);
  }
  store<u64>(reader + R_NEXT, 0);
  store<u32>(reader + R_POS, 64);
}

/** Squeezes a reader's next output block into its buffer. */
function squeeze(reader: usize): void {
  const counter = load<u64>(reader + R_NEXT);
  b3compress(
    reader + O_CV,
    reader + O_BLOCK,
    counter,
    load<u32>(reader + O_BLOCK_LEN),
    load<u32>(reader + O_FLAGS) | ROOT,
    reader + R_BUF,
  );
  store<u64>(reader + R_NEXT, counter + 1);
  store<u32>(reader + R_POS, 0);
}

/** Next output byte of a reader. */
export function b3ReadByte(reader: usize): u8 {
  const pos = b3Refill(reader);
  store<u32>(reader + R_POS, pos + 1);
  return load<u8>(reader + R_BUF + pos);
}

/**
 * Squeezes the reader's next block when its buffer is used up; returns the
 * buffer position of the next unread byte (0..63). With b3Buffer() and
 * b3Consume() a caller can use the buffered bytes as a run, not byte by byte.
 */
export function b3Refill(reader: usize): u32 {
  const pos = load<u32>(reader + R_POS);
  if (pos < 64) return pos;
  squeeze(reader);
  return 0;
}

/** Address of a reader's 64-byte output buffer. */
@inline export function b3Buffer(reader: usize): usize {
  return reader + R_BUF;
}

/** Marks n buffered bytes (from the current position) as read. */
@inline export function b3Consume(reader: usize, n: u32): void {
  store<u32>(reader + R_POS, load<u32>(reader + R_POS) + n);
}

/** Reads len output bytes into out. */
export function b3Read(reader: usize, out: usize, len: usize): void {
  while (len > 0) {
    const pos = b3Refill(reader);
    let n = <usize>(64 - pos);
    if (n > len) n = len;
    memory.copy(out, reader + R_BUF + pos, n);
    store<u32>(reader + R_POS, pos + <u32>n);
    out += n;
    len -= n;
  }
}

const CTX: usize = memory.data(<i32>B3_CTX_SIZE, 8);
const READER: usize = memory.data(<i32>B3_READER_SIZE, 8);

/** One-shot BLAKE3 of [p, p + len) with outLen bytes of output. Uses the shared context. */
export function blake3(p: usize, len: usize, out: usize, outLen: usize): void {
  b3Init(CTX);
  b3Update(CTX, p, len);
  b3Reader(CTX, READER);
  b3Read(READER, out, outLen);
}

/** The shared context, for callers that hash several pieces in sequence. */
export function sharedCtx(): usize {
  return CTX;
}

/** Finishes a context into 32 bytes at out. */
export function b3Final32(ctx: usize, out: usize): void {
  b3Reader(ctx, READER);
  b3Read(READER, out, 32);
}
