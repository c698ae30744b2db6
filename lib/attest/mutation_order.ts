/**
 * Server-side encoding and generation of mutation orders
 * (docs/attestation.md, "Mutation orders"): a 3-byte header (version 1,
 * rounds, op count) followed by 5-byte ops (kind, offset u16 LE, length − 1,
 * argument). The core validates and applies them; this module only writes them.
 */
import {
  MUTATION_OP_BYTES,
  MUTATION_OP_KINDS,
  MUTATION_ORDER_HEADER_BYTES,
  MUTATION_ORDER_MAX_OPS,
  MUTATION_ORDER_MAX_ROUNDS,
  MUTATION_ORDER_VERSION,
} from "./core.ts";
import { toBase64 } from "../bytes.ts";
import { randomBelow, type RandomBytes } from "./program.ts";
import { randomBytes } from "./random_pool.ts";

/** The six operations; values are the kind byte. */
export enum MutationKind {
  Xor = 0,
  Add = 1,
  Rotate = 2,
  Swap = 3,
  Reverse = 4,
  Chain = 5,
}

/** One operation of an order. */
export interface MutationOp {
  kind: MutationKind;
  /** Start offset; reduced modulo the gene size when applied. 0..65535. */
  offset: number;
  /** Window length 1..256 (clamped to the gene size when applied). */
  length: number;
  /** Operation argument 0..255 (rotate amount, chain constant; ignored by the others). */
  arg: number;
}

/** A decoded order. */
export interface MutationOrder {
  rounds: number;
  ops: MutationOp[];
}

/** Options of randomMutationOrder(). */
export interface RandomOrderOptions {
  /** Rounds, default uniform in 1..3. */
  rounds?: number;
  /** Number of ops, default uniform in 4..12. */
  ops?: number;
  random?: RandomBytes;
}

/**
 * Random bytes served from a pool refilled 4 KiB at a time: an order takes
 * dozens of small draws, and one getRandomValues call per draw dominated the
 * cost of issuing orders on the heartbeat path.
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;
const cryptoBytes: RandomBytes = (n) => {
  if (n > pool.length) return crypto.getRandomValues(new Uint8Array(n));
  if (poolAt + n > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const out = pool.slice(poolAt, poolAt + n);
  // Never hand out the same bytes twice.
  pool.fill(0, poolAt, poolAt + n);
  poolAt += n;
  return out;
};

function checkInt(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`Mutation order ${name} ${v} is outside ${min}..${max}`);
  }
}

/** Bytes of an order; throws RangeError for out-of-range fields. */
export function encodeMutationOrder(order: MutationOrder): Uint8Array {
  checkInt("rounds", order.rounds, 1, MUTATION_ORDER_MAX_ROUNDS);
  checkInt("op count", order.ops.length, 1, MUTATION_ORDER_MAX_OPS);
  const out = new Uint8Array(MUTATION_ORDER_HEADER_BYTES + MUTATION_OP_BYTES * order.ops.length);
  out.set([MUTATION_ORDER_VERSION, order.rounds, order.ops.length]);
  order.ops.forEach((op, i) => {
    checkInt("kind", op.kind, 0, MUTATION_OP_KINDS - 1);
    checkInt("offset", op.offset, 0, 0xffff);
    checkInt("length", op.length, 1, 256);
    checkInt("arg", op.arg, 0, 255);
    const at = MUTATION_ORDER_HEADER_BYTES + MUTATION_OP_BYTES * i;
    out.set([op.kind, op.offset & 0xff, op.offset >> 8, op.length - 1, op.arg], at);
  });
  return out;
}

/** The order encoded in bytes, or null when they are not a well-formed version-1 order. */
export function decodeMutationOrder(bytes: Uint8Array): MutationOrder | null {
  if (bytes.length < MUTATION_ORDER_HEADER_BYTES || bytes[0] !== MUTATION_ORDER_VERSION) {
    return null;
  }
  const rounds = bytes[1];
  const count = bytes[2];
  if (rounds < 1 || rounds > MUTATION_ORDER_MAX_ROUNDS) return null;
  if (count < 1 || count > MUTATION_ORDER_MAX_OPS) return null;
  if (bytes.length !== MUTATION_ORDER_HEADER_BYTES + MUTATION_OP_BYTES * count) return null;
  const ops: MutationOp[] = [];
  for (let i = 0; i < count; i++) {
    const o = bytes.subarray(MUTATION_ORDER_HEADER_BYTES + MUTATION_OP_BYTES * i);
    if (o[0] >= MUTATION_OP_KINDS) return null;
    ops.push({ kind: o[0], offset: o[1] | (o[2] << 8), length: o[3] + 1, arg: o[4] });
  }
  return { rounds, ops };
}

/** A random order with uniformly random ops. */
export function generateMutationOrder(options: RandomOrderOptions = {}): MutationOrder {
  const random = options.random ?? cryptoBytes;
  const rounds = options.rounds ?? 1 + randomBelow(3, random);
  const count = options.ops ?? 4 + randomBelow(9, random);
  checkInt("op count", count, 1, MUTATION_ORDER_MAX_OPS);
  const ops: MutationOp[] = [];
  for (let i = 0; i < count; i++) {
    const b = random(4);
    ops.push({
      kind: randomBelow(MUTATION_OP_KINDS, random),
      offset: b[0] | (b[1] << 8),
      length: b[2] + 1,
      arg: b[3],
    });
  }
  return { rounds, ops };
}

/** A random mutation order, base64 (the `mutation_order_b64` of POST /init and /hb). */
export function randomMutationOrder(options: RandomOrderOptions = {}): string {
  const custom = options.random !== undefined || options.rounds !== undefined ||
    options.ops !== undefined;
  return (custom ? null : fastRandomOrder()) ??
    toBase64(encodeMutationOrder(generateMutationOrder(options)));
}

/**
 * The default order straight into bytes from one draw of random bytes: every
 * accepted heartbeat issues an order, and building op objects first cost
 * several times more. Same distribution as generateMutationOrder(); null in
 * the (astronomically rare) case that rejection sampling runs out of bytes.
 */
function fastRandomOrder(): string | null {
  const r = randomBytes(128);
  let at = 0;
  const below = (bound: number): number => {
    const limit = 256 - (256 % bound);
    while (at < r.length) {
      const b = r[at++];
      if (b < limit) return b % bound;
    }
    return -1;
  };
  const rounds = 1 + below(3);
  const count = 4 + below(9);
  if (rounds < 1 || count < 4) return null;
  const out = new Uint8Array(MUTATION_ORDER_HEADER_BYTES + MUTATION_OP_BYTES * count);
  out[0] = MUTATION_ORDER_VERSION;
  out[1] = rounds;
  out[2] = count;
  for (let i = 0; i < count; i++) {
    const kind = below(MUTATION_OP_KINDS);
    if (kind < 0 || at + 4 > r.length) return null;
    const o = MUTATION_ORDER_HEADER_BYTES + MUTATION_OP_BYTES * i;
    out[o] = kind;
    // Offset (2 bytes LE), length − 1, arg; byte by byte: a subarray per op cost more.
    out[o + 1] = r[at];
    out[o + 2] = r[at + 1];
    out[o + 3] = r[at + 2];
    out[o + 4] = r[at + 3];
    at += 4;
  }
  return toBase64(out);
}
