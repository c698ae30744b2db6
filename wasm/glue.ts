/**
 * JavaScript side of the attestation core (wasm/build/attest.wasm), shared by
 * the browser bundle and the server (lib/attest/core.ts). It turns the
 * pointer/length exports of wasm/assembly/index.ts into the string/object API
 * of docs/attestation.md and adds the stateless gene functions the server
 * needs. Browser-safe: no Deno APIs, only WebAssembly, fetch, TextEncoder,
 * atob and crypto.getRandomValues.
 *
 * Failure convention (from the spec): string-returning functions return "" on
 * any failure, boolean ones false; nothing throws on bad input.
 */

/** VM program length bounds, in instructions (one byte each). */
export const PROGRAM_MIN_OPS = 8;
export const PROGRAM_MAX_OPS = 16;
/** ip of run_program()'s failure result; a valid run ends with ip ≤ 16. */
export const PROGRAM_INVALID_IP = 0xffff;
/** Gene buffer size bounds in bytes (inclusive). */
export const GENE_SIZE_MIN = 64;
export const GENE_SIZE_MAX = 65536;
/** Mutation order format constants. */
export const MUTATION_ORDER_VERSION = 1;
export const MUTATION_ORDER_MAX_ROUNDS = 16;
export const MUTATION_ORDER_MAX_OPS = 32;
export const MUTATION_ORDER_HEADER_BYTES = 3;
export const MUTATION_OP_BYTES = 5;
export const MUTATION_OP_KINDS = 6;

/** Output of run_program. */
export interface ProgramResult {
  stack: number[];
  ip: number;
}

/** A gene state advanced by one mutation order, with its commitment. */
export interface GeneAdvance {
  state: Uint8Array;
  commitment: string;
}

/** The loaded core: the ten exports of the spec plus server and test helpers. */
export interface AttestCore {
  /** New key pair from crypto.getRandomValues; returns the public key hex. */
  generate_keypair(): string;
  /** Public key hex, "" when no key exists. */
  get_public_key(): string;
  /** Ed25519 signature (hex) of the UTF-8 bytes of msg, "" without a key. */
  sign_message(msg: string): string;
  /** Next hash-chain head (hex), "" on malformed input. */
  compute_next_hash(
    prev: string,
    ts: number | bigint,
    entropy: string,
    stack: string,
    salt: string,
  ): string;
  /** Runs a VM program; an invalid program gives { stack: [], ip: PROGRAM_INVALID_IP }. */
  run_program(b64: string): ProgramResult;
  /** Sets the committed gene state to the initial state of gene_size bytes. */
  init_gene_state(gene_size: number): boolean;
  /** Previews the pending mutation on a copy of the committed state; commitment hex. */
  preview_gene_commitment(
    order_b64: string,
    session_id: string,
    mutation_step: number | bigint,
    rounds: number,
  ): string;
  /** Makes the preview the committed state; false when there is no preview. */
  commit_gene_preview(): boolean;
  /** Drops the preview. */
  discard_gene_preview(): void;
  /** Commitment hex of the committed state. */
  current_gene_commitment(session_id: string, mutation_step: number | bigint): string;

  /** Test vectors only: key pair from a 32-byte seed; returns the public key hex. */
  keypair_from_seed(seed: Uint8Array): string;
  /** Zeroes the private key held in WASM memory. */
  forget_key(): void;
  /** The `rounds` header byte of a mutation order, 0 when the order is malformed. */
  mutation_order_rounds(order_b64: string): number;

  /** Initial gene state of size bytes, null for an invalid size. */
  initialGeneState(size: number): Uint8Array | null;
  /** A copy of state mutated by the order, null on malformed input. state is not modified. */
  applyMutation(
    state: Uint8Array,
    orderB64: string,
    sessionIdHex: string,
    step: number | bigint,
    rounds?: number,
  ): Uint8Array | null;
  /** Commitment hex of state for the session and step, "" on malformed input. */
  commitment(state: Uint8Array, sessionIdHex: string, step: number | bigint): string;
  /** applyMutation followed by commitment of the result. */
  applyMutationAndCommit(
    state: Uint8Array,
    orderB64: string,
    sessionIdHex: string,
    step: number | bigint,
    rounds?: number,
  ): GeneAdvance | null;
  /** BLAKE3 of bytes, outLen (default 32, at most 1024) bytes of output. */
  blake3(bytes: Uint8Array, outLen?: number): Uint8Array;
  /** SHA-512 of bytes. */
  sha512(bytes: Uint8Array): Uint8Array;
  /** Ed25519 signature of raw bytes, null without a key. */
  signBytes(bytes: Uint8Array): Uint8Array | null;
  /** H(0) = BLAKE3(session_id ‖ public key ‖ salt), hex; "" on malformed input. */
  initialHash(sessionIdHex: string, publicKeyHex: string, saltHex: string): string;
  /** The instance's memory, for tests that check it does not grow. */
  readonly memory: WebAssembly.Memory;
}

interface RawExports {
  memory: WebAssembly.Memory;
  io_reserve(len: number): number;
  arg_ptr(): number;
  out_ptr(): number;
  scratch_ptr(): number;
  keypair_from_arg(): number;
  public_key(): number;
  forget_key(): void;
  sign(len: number): number;
  blake3(len: number, outLen: number): number;
  sha512(len: number): number;
  next_hash(ts: bigint, entropyLen: number, stackLen: number): number;
  vm_run(len: number): number;
  gene_init(size: number): number;
  gene_size(): number;
  gene_preview(orderLen: number, step: bigint, rounds: number): number;
  gene_commit(): number;
  gene_discard(): void;
  gene_current(step: bigint): number;
  order_rounds(len: number): number;
  scratch_init(size: number): number;
  scratch_mutate(size: number, orderLen: number, step: bigint, rounds: number): number;
  scratch_commit(size: number, step: bigint): number;
}

/** Where the compiled module comes from: bytes, a compiled module, or a URL to fetch. */
export type AttestCoreSource = BufferSource | WebAssembly.Module | URL | string;

const HEX = "0123456789abcdef";
const B64_VALUE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const U64_MAX = (1n << 64n) - 1n;
const encoder = new TextEncoder();

/**
 * The platform's Uint8Array hex/base64 methods (V8 13.x, Firefox 133, Safari
 * 18.2) where present: they run several times per heartbeat on the server and
 * the loops below allocate a string per byte. Older browsers get the loops.
 */
const native = Uint8Array as unknown as {
  fromHex?(hex: string): Uint8Array;
  fromBase64?(b64: string, opts: { lastChunkHandling: "strict" }): Uint8Array;
  prototype: {
    toHex?(): string;
    toBase64?(): string;
    setFromHex?(hex: string): { read: number; written: number };
    setFromBase64?(
      b64: string,
      opts: { lastChunkHandling: "strict" },
    ): { read: number; written: number };
  };
};
type NativeSetters = Required<typeof native.prototype>;
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => HEX[b >> 4] + HEX[b & 15]);

/** Lowercase hex of bytes. */
export const toHex: (bytes: Uint8Array) => string = native.prototype.toHex
  ? (bytes) => (bytes as unknown as { toHex(): string }).toHex()
  : toHexPortable;

/** toHex() without the platform method (exported for tests). */
export function toHexPortable(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX_PAIRS[bytes[i]];
  return s;
}

/** Bytes of a hex string of exactly byteLength bytes (either case), null otherwise. */
export function fromHex(hex: unknown, byteLength: number): Uint8Array | null {
  if (typeof hex !== "string" || hex.length !== byteLength * 2) return null;
  if (!native.fromHex) return fromHexPortable(hex, byteLength);
  try {
    return native.fromHex(hex);
  } catch {
    return null; // a character outside 0-9a-fA-F
  }
}

/** fromHex() without the platform method (exported for tests). */
export function fromHexPortable(hex: unknown, byteLength: number): Uint8Array | null {
  if (typeof hex !== "string" || hex.length !== byteLength * 2) return null;
  const out = new Uint8Array(byteLength);
  return writeHexPortable(out, hex) ? out : null;
}

/**
 * Decodes a hex string of exactly `target.length` bytes (either case) into
 * `target`, which may be a view of WASM or shared memory: no allocation, where
 * a new array costs ~0.3 µs here. False (target unspecified) when malformed.
 */
export function writeHex(target: Uint8Array, hex: unknown): boolean {
  if (typeof hex !== "string" || hex.length !== target.length * 2) return false;
  if (!native.prototype.setFromHex) return writeHexPortable(target, hex);
  try {
    return (target as unknown as NativeSetters).setFromHex(hex).written === target.length;
  } catch {
    return false; // a character outside 0-9a-fA-F
  }
}

/** Where isHex() decodes to; it only wants to know whether decoding succeeds. */
const hexScratch = new Uint8Array(64);

/**
 * True when `hex` is exactly `byteLength` bytes of hex (either case): the
 * platform decoder as the validator, several times faster than a pattern.
 */
export function isHex(hex: unknown, byteLength: number): boolean {
  if (typeof hex !== "string" || hex.length !== byteLength * 2) return false;
  if (byteLength > hexScratch.length || !native.prototype.setFromHex) {
    return fromHexPortable(hex, byteLength) !== null;
  }
  try {
    return (hexScratch as unknown as NativeSetters).setFromHex(hex).read === hex.length;
  } catch {
    return false; // a character outside 0-9a-fA-F
  }
}

/** writeHex() without the platform method (exported for tests). */
export function writeHexPortable(target: Uint8Array, hex: unknown): boolean {
  if (typeof hex !== "string" || hex.length !== target.length * 2) return false;
  // One pass that validates and decodes.
  for (let i = 0; i < target.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return false;
    target[i] = (hi << 4) | lo;
  }
  return true;
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/** Bytes of canonical standard base64 (padding required, no whitespace), null otherwise. */
export function fromBase64(b64: unknown): Uint8Array | null {
  return decodeBase64(b64, true);
}

/** fromBase64() without the platform method (exported for tests). */
export function fromBase64Portable(b64: unknown): Uint8Array | null {
  return decodeBase64(b64, false);
}

/** Bytes that canonical base64 `b64` decodes to; -1 when it is not canonical base64. */
export function base64Length(b64: unknown): number {
  if (typeof b64 !== "string") return -1;
  const len = paddedLength(b64);
  if (len < 0) return -1;
  // The platform decoder skips whitespace: the pattern keeps it out.
  if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return -1;
  // Reject non-zero padding bits so that each byte string has one encoding.
  const pad = b64.length / 4 * 3 - len;
  if (pad > 0) {
    const last = B64_VALUE.indexOf(b64[b64.length - 1 - pad]);
    if ((last & (pad === 2 ? 0x0f : 0x03)) !== 0) return -1;
  }
  return len;
}

/**
 * Bytes that base64 of this length and padding would decode to, -1 when the
 * length is not a multiple of 4; the characters are not checked.
 */
function paddedLength(b64: string): number {
  if (b64.length % 4 !== 0) return -1;
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return b64.length / 4 * 3 - pad;
}

/**
 * Decodes canonical base64 into the start of `target` (no allocation, as
 * writeHex()); the number of bytes written, or -1 when `b64` is not canonical
 * base64 or does not fit (target unspecified then).
 */
export function writeBase64(target: Uint8Array, b64: unknown): number {
  if (typeof b64 !== "string" || !native.prototype.setFromBase64) {
    return writeBase64Portable(target, b64);
  }
  const len = paddedLength(b64);
  if (len < 0 || len > target.length) return -1;
  try {
    // The strict decoder refuses non-zero padding bits. It skips whitespace,
    // but then fewer bytes come out than the length promises. One decode
    // validates as well: the pattern base64Length() tests costs more than it.
    const { read, written } = (target as unknown as NativeSetters).setFromBase64(b64, {
      lastChunkHandling: "strict",
    });
    return read === b64.length && written === len ? len : -1;
  } catch {
    return -1;
  }
}

/** writeBase64() without the platform method (exported for tests). */
export function writeBase64Portable(target: Uint8Array, b64: unknown): number {
  const len = base64Length(b64);
  if (len < 0 || len > target.length) return -1;
  const bin = atob(b64 as string);
  for (let i = 0; i < len; i++) target[i] = bin.charCodeAt(i);
  return len;
}

function decodeBase64(b64: unknown, useNative: boolean): Uint8Array | null {
  if (base64Length(b64) < 0) return null;
  if (useNative && native.fromBase64) {
    return native.fromBase64(b64 as string, { lastChunkHandling: "strict" });
  }
  const bin = atob(b64 as string);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Standard base64 with padding. */
export const toBase64: (bytes: Uint8Array) => string = native.prototype.toBase64
  ? (bytes) => (bytes as unknown as { toBase64(): string }).toBase64()
  : toBase64Portable;

/** toBase64() without the platform method (exported for tests). */
export function toBase64Portable(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin);
}

function toU64(v: unknown): bigint | null {
  if (typeof v === "bigint") return v >= 0n && v <= U64_MAX ? v : null;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return null;
}

function isU8(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 255;
}

async function compile(source: AttestCoreSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === "string" || source instanceof URL) {
    const res = await fetch(source);
    if (!res.ok) {
      throw new Error(`Cannot fetch attestation core "${String(source)}": ${res.status}`);
    }
    return await WebAssembly.compile(await res.arrayBuffer());
  }
  return await WebAssembly.compile(source);
}

/** Instantiates the attestation core and returns its API. */
export async function loadAttestCore(source: AttestCoreSource): Promise<AttestCore> {
  const module = await compile(source);
  const instance = await WebAssembly.instantiate(module, {
    env: {
      abort(): never {
        throw new Error("Attestation core aborted");
      },
    },
  });
  const x = instance.exports as unknown as RawExports;
  const ARG = x.arg_ptr();
  const OUT = x.out_ptr();
  const SCRATCH = x.scratch_ptr();

  // memory.buffer is replaced when memory grows (only in io_reserve): the view
  // is remade when its buffer is no longer the memory's.
  let view = new Uint8Array(x.memory.buffer);
  const mem = () =>
    view.buffer === x.memory.buffer ? view : (view = new Uint8Array(x.memory.buffer));
  const out = (len: number) => mem().slice(OUT, OUT + len);
  // Straight from WASM memory: no copy, no new array (these run several times per heartbeat).
  const outHex = (len: number) => toHex(mem().subarray(OUT, OUT + len));
  const argHex = (hex: unknown, len: number) => writeHex(mem().subarray(ARG, ARG + len), hex);
  const putIo = (bytes: Uint8Array): number | null => {
    const p = x.io_reserve(bytes.length);
    if (p === 0) return null;
    mem().set(bytes, p);
    return bytes.length;
  };
  const putArg = (bytes: Uint8Array, at = 0) => mem().set(bytes, ARG + at);

  const blake3 = (bytes: Uint8Array, outLen = 32): Uint8Array => {
    if (!Number.isInteger(outLen) || outLen < 0 || outLen > 1024) {
      throw new RangeError(`BLAKE3 output length ${outLen} is outside 0..1024`);
    }
    const len = putIo(bytes);
    if (len === null || !x.blake3(len, outLen)) throw new RangeError("BLAKE3 input is too large");
    return out(outLen);
  };

  const applyMutation = (
    state: Uint8Array,
    orderB64: string,
    sessionIdHex: string,
    step: number | bigint,
    rounds = 0,
  ): Uint8Array | null => {
    const st = toU64(step);
    // Checked as it is decoded below.
    const len = typeof orderB64 === "string" ? paddedLength(orderB64) : -1;
    if (!(state instanceof Uint8Array) || len < 0 || st === null || !isU8(rounds)) return null;
    if (state.length < GENE_SIZE_MIN || state.length > GENE_SIZE_MAX) return null;
    // The order and session id are decoded straight into WASM memory.
    const io = x.io_reserve(len);
    if (io === 0 || writeBase64(mem().subarray(io, io + len), orderB64) !== len) return null;
    if (!argHex(sessionIdHex, 32)) return null;
    mem().set(state, SCRATCH);
    if (!x.scratch_mutate(state.length, len, st, rounds)) return null;
    return mem().slice(SCRATCH, SCRATCH + state.length);
  };

  const commitment = (state: Uint8Array, sessionIdHex: string, step: number | bigint): string => {
    const st = toU64(step);
    if (!(state instanceof Uint8Array) || st === null) return "";
    if (state.length < GENE_SIZE_MIN || state.length > GENE_SIZE_MAX) return "";
    if (!argHex(sessionIdHex, 32)) return "";
    mem().set(state, SCRATCH);
    return x.scratch_commit(state.length, st) ? outHex(32) : "";
  };

  return {
    memory: x.memory,

    generate_keypair(): string {
      // The seed is written straight into WASM memory; keypair_from_arg zeroes it.
      crypto.getRandomValues(new Uint8Array(x.memory.buffer, ARG, 32));
      x.keypair_from_arg();
      return outHex(32);
    },

    keypair_from_seed(seed: Uint8Array): string {
      if (!(seed instanceof Uint8Array) || seed.length !== 32) return "";
      putArg(seed);
      x.keypair_from_arg();
      return outHex(32);
    },

    forget_key(): void {
      x.forget_key();
    },

    get_public_key(): string {
      return x.public_key() ? outHex(32) : "";
    },

    sign_message(msg: string): string {
      if (typeof msg !== "string") return "";
      const len = putIo(encoder.encode(msg));
      if (len === null || !x.sign(len)) return "";
      return outHex(64);
    },

    signBytes(bytes: Uint8Array): Uint8Array | null {
      const len = putIo(bytes);
      if (len === null || !x.sign(len)) return null;
      return out(64);
    },

    compute_next_hash(prev, ts, entropy, stack, salt): string {
      const t = toU64(ts);
      if (t === null || typeof entropy !== "string" || typeof stack !== "string") return "";
      // Both strings UTF-8 encoded straight into the IO buffer (at most 3 bytes per UTF-16 unit).
      const io = x.io_reserve(3 * (entropy.length + stack.length));
      if (io === 0) return "";
      const e = encoder.encodeInto(entropy, mem().subarray(io)).written;
      const k = encoder.encodeInto(stack, mem().subarray(io + e)).written;
      // Salt at ARG, previous hash after it, decoded in place.
      if (!argHex(salt, 16) || !writeHex(mem().subarray(ARG + 16, ARG + 48), prev)) return "";
      return x.next_hash(t, e, k) ? outHex(32) : "";
    },

    run_program(b64: string): ProgramResult {
      const prog = fromBase64(b64);
      if (!prog) return { stack: [], ip: PROGRAM_INVALID_IP };
      const len = putIo(prog);
      if (len === null || !x.vm_run(len)) return { stack: [], ip: PROGRAM_INVALID_IP };
      const view = new DataView(x.memory.buffer, OUT, 8 + 4 * 32);
      const ip = view.getUint32(0, true);
      const depth = view.getUint32(4, true);
      const stack: number[] = [];
      for (let i = 0; i < depth; i++) stack.push(view.getUint32(8 + 4 * i, true));
      return { stack, ip };
    },

    init_gene_state(gene_size: number): boolean {
      if (!Number.isInteger(gene_size) || gene_size < 0 || gene_size > 0xffffffff) return false;
      return x.gene_init(gene_size) === 1;
    },

    preview_gene_commitment(order_b64, session_id, mutation_step, rounds): string {
      x.gene_discard();
      const order = fromBase64(order_b64);
      const sid = fromHex(session_id, 32);
      const step = toU64(mutation_step);
      if (!order || !sid || step === null || !isU8(rounds)) return "";
      const len = putIo(order);
      if (len === null) return "";
      putArg(sid);
      return x.gene_preview(len, step, rounds) ? outHex(32) : "";
    },

    commit_gene_preview(): boolean {
      return x.gene_commit() === 1;
    },

    discard_gene_preview(): void {
      x.gene_discard();
    },

    current_gene_commitment(session_id, mutation_step): string {
      const sid = fromHex(session_id, 32);
      const step = toU64(mutation_step);
      if (!sid || step === null) return "";
      putArg(sid);
      return x.gene_current(step) ? outHex(32) : "";
    },

    mutation_order_rounds(order_b64: string): number {
      const order = fromBase64(order_b64);
      if (!order) return 0;
      const len = putIo(order);
      return len === null ? 0 : x.order_rounds(len);
    },

    initialGeneState(size: number): Uint8Array | null {
      if (!Number.isInteger(size) || size < GENE_SIZE_MIN || size > GENE_SIZE_MAX) return null;
      if (!x.scratch_init(size)) return null;
      return mem().slice(SCRATCH, SCRATCH + size);
    },

    applyMutation,
    commitment,

    applyMutationAndCommit(state, orderB64, sessionIdHex, step, rounds = 0): GeneAdvance | null {
      const next = applyMutation(state, orderB64, sessionIdHex, step, rounds);
      // The mutated state is still in SCRATCH and the session id in ARG: commit in place
      // (the server runs this for every heartbeat).
      if (!next || !x.scratch_commit(next.length, toU64(step)!)) return null;
      return { state: next, commitment: outHex(32) };
    },

    blake3,

    sha512(bytes: Uint8Array): Uint8Array {
      const len = putIo(bytes);
      if (len === null || !x.sha512(len)) throw new RangeError("SHA-512 input is too large");
      return out(64);
    },

    initialHash(sessionIdHex: string, publicKeyHex: string, saltHex: string): string {
      const sid = fromHex(sessionIdHex, 32);
      const pk = fromHex(publicKeyHex, 32);
      const salt = fromHex(saltHex, 16);
      if (!sid || !pk || !salt) return "";
      const msg = new Uint8Array(80);
      msg.set(sid);
      msg.set(pk, 32);
      msg.set(salt, 64);
      return toHex(blake3(msg));
    },
  };
}
