/**
 * The heartbeat state of recent sessions, in memory shared by every thread
 * serving the attestation listener, so that a heartbeat usually needs no
 * SQLite read, which costs several times more than a hit here (more still
 * after another thread's commit, which empties this connection's page cache).
 *
 * It is a copy, never the authority:
 * - every write to it happens under the sessions table's write lock, right
 *   after the write to the table commits (a group commit, an `/init`, a purge),
 *   so it holds the committed state of the sessions it has;
 * - a reader uses an entry only when it agrees with what the heartbeat claims
 *   (`prev_hash` and `mutation_step`) and reads the table otherwise, and the
 *   acceptance is still the compare-and-set in the table.
 *   So an outdated entry can cost a read, never a wrong verdict.
 *
 * Slots are fixed-size, in buckets of WAYS neighbours; a session may use any
 * slot of the bucket its id picks (ids are random, so their first 8 hex
 * digits spread evenly). A session written to the cache when every slot of
 * its bucket holds others takes the slot of the one that expires first. Each
 * slot carries a sequence number
 * (a seqlock): odd while being written; a reader that finds it odd, or changed
 * after its copy, reads the table instead.
 */
import { GENE_SIZE_MAX, GENE_SIZE_MIN } from "./core.ts";
import { toBase64, toHex, writeBase64, writeHex } from "../bytes.ts";
import type { RowHint } from "../store/row_hint.ts";
import type { HeartbeatSnapshot } from "./session_repo.ts";

/**
 * Slots a session may use. With pairs, a pair wanted by three or more
 * sessions made them evict each other in turn, and a visible share of
 * heartbeats missed at a fraction of the default capacity; with eight,
 * practically none do (docs/attestation.md, "Session cache").
 */
const WAYS = 8;

/** The longest mutation order: a 3-byte header and 32 operations of 5 bytes. */
const MAX_ORDER_BYTES = 3 + 32 * 5;

// Byte offsets within a slot.
const SEQ = 0; // u32, even when stable
const ORDER_LEN = 4; // u32; 0 for an empty slot (never written, or forgotten)
const STEP = 8; // f64
const EXPIRES = 16; // f64
const CHAIN = 24; // f64
const HINT = 32; // f64
const ID = 40; // 32 bytes
const KEY = 72; // 32 bytes
const HASH = 104; // 32 bytes
const SALT = 136; // 16 bytes
const ORDER = 152; // MAX_ORDER_BYTES
const GENE = (ORDER + MAX_ORDER_BYTES + 7) & ~7;

/** Bytes of one slot for sessions of `geneSize` bytes of gene state. */
function slotBytes(geneSize: number): number {
  return (GENE + geneSize + 7) & ~7;
}

/** What the threads share: the slots, and the gene size they were laid out for. */
export interface SessionCacheTable {
  slots: SharedArrayBuffer;
  geneSize: number;
}

/**
 * `megabytes` of slots for sessions of `geneSize` bytes of gene state; null
 * when that is 0 or the size is one the core refuses (then `/init` fails anyway).
 */
export function createSessionCacheTable(
  megabytes: number,
  geneSize: number,
): SessionCacheTable | null {
  if (!Number.isInteger(geneSize) || geneSize < GENE_SIZE_MIN || geneSize > GENE_SIZE_MAX) {
    return null;
  }
  // Whole buckets only.
  const capacity = Math.floor(megabytes * 1024 * 1024 / slotBytes(geneSize) / WAYS) * WAYS;
  return capacity > 0
    ? { slots: new SharedArrayBuffer(capacity * slotBytes(geneSize)), geneSize }
    : null;
}

export class SharedSessionCache {
  readonly #u8: Uint8Array;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #slotBytes: number;
  /** Sessions it can hold at once (slots). */
  readonly capacity: number;

  readonly geneSize: number;

  /** A view of a table made by createSessionCacheTable(). */
  constructor(table: SessionCacheTable) {
    this.geneSize = table.geneSize;
    this.#u8 = new Uint8Array(table.slots);
    this.#i32 = new Int32Array(table.slots);
    this.#f64 = new Float64Array(table.slots);
    this.#slotBytes = slotBytes(table.geneSize);
    this.capacity = table.slots.byteLength / this.#slotBytes;
  }

  /** The id's first 32 bits: they pick its bucket, and tell most other ids apart cheaply. NaN when not hex. */
  #tag(sessionId: string): number {
    return parseInt(sessionId.slice(0, 8), 16);
  }

  /** Byte offset of the first slot of the bucket for `tag`. */
  #bucket(tag: number): number {
    return (tag % (this.capacity / WAYS)) * WAYS * this.#slotBytes;
  }

  /**
   * Whether the slot at `at` holds the session (unsynchronized: readers
   * confirm under the seqlock). The stored id's first four bytes are compared
   * with the tag before the whole id is formatted.
   */
  #holds(at: number, sessionId: string, tag: number): boolean {
    const u8 = this.#u8;
    const id = at + ID;
    return this.#i32[(at + ORDER_LEN) >> 2] !== 0 &&
      ((u8[id] << 24 | u8[id + 1] << 16 | u8[id + 2] << 8 | u8[id + 3]) >>> 0) === tag &&
      toHex(u8.subarray(id, id + 32)) === sessionId;
  }

  /**
   * The session's state as last committed, if this cache holds it. The gene
   * state is copied into `gene` (geneSize bytes, the caller's to reuse: a new
   * array per heartbeat cost more than the rest of the copy); the snapshot's
   * `gene_state` is that array.
   */
  get(sessionId: string, gene: Uint8Array): HeartbeatSnapshot | undefined {
    const tag = this.#tag(sessionId);
    if (Number.isNaN(tag) || gene.length !== this.geneSize) return undefined;
    const first = this.#bucket(tag);
    for (let k = 0, at = first; k < WAYS; k++, at += this.#slotBytes) {
      if (this.#holds(at, sessionId, tag)) return this.#read(at, sessionId, gene);
    }
    return undefined;
  }

  /** A consistent copy of the slot at `at` if it holds the session, under its seqlock. */
  #read(at: number, sessionId: string, gene: Uint8Array): HeartbeatSnapshot | undefined {
    const seq = Atomics.load(this.#i32, (at + SEQ) >> 2);
    if ((seq & 1) === 1) return undefined;
    const orderLen = this.#i32[(at + ORDER_LEN) >> 2];
    // Out of range only when empty, or torn by a write that began after the check above.
    if (orderLen === 0 || orderLen > MAX_ORDER_BYTES) return undefined;
    const u8 = this.#u8;
    // An exact comparison: the table's ids are lowercase hex, and so is this copy.
    if (toHex(u8.subarray(at + ID, at + ID + 32)) !== sessionId) return undefined;
    gene.set(u8.subarray(at + GENE, at + GENE + this.geneSize));
    const snapshot: HeartbeatSnapshot = {
      session_id: sessionId,
      public_key: toHex(u8.subarray(at + KEY, at + KEY + 32)),
      salt: toHex(u8.subarray(at + SALT, at + SALT + 16)),
      last_hash: toHex(u8.subarray(at + HASH, at + HASH + 32)),
      pending_step: this.#f64[(at + STEP) >> 3],
      pending_order: toBase64(u8.subarray(at + ORDER, at + ORDER + orderLen)),
      gene_state: gene,
      chain_length: this.#f64[(at + CHAIN) >> 3],
      expires_at: this.#f64[(at + EXPIRES) >> 3],
      hint: this.#f64[(at + HINT) >> 3] as RowHint,
    };
    // Unchanged sequence: no write overlapped the copy.
    return Atomics.load(this.#i32, (at + SEQ) >> 2) === seq ? snapshot : undefined;
  }

  /**
   * Stores a session's committed state, decoded straight into a slot: the one
   * holding the session, else an empty one of its bucket, else the one whose
   * session expires first. The caller holds the sessions table's write lock:
   * that makes it the only writer. A state this cache cannot hold (another
   * gene size, a malformed field) leaves the slot empty.
   */
  put(s: HeartbeatSnapshot): void {
    const tag = this.#tag(s.session_id);
    if (Number.isNaN(tag)) return;
    const at = this.#slotFor(s.session_id, tag);
    const u8 = this.#u8;
    const seqAt = (at + SEQ) >> 2;
    Atomics.add(this.#i32, seqAt, 1); // odd: readers keep off
    const orderLen = s.gene_state.length === this.geneSize &&
        writeHex(u8.subarray(at + ID, at + ID + 32), s.session_id) &&
        writeHex(u8.subarray(at + KEY, at + KEY + 32), s.public_key) &&
        writeHex(u8.subarray(at + HASH, at + HASH + 32), s.last_hash) &&
        writeHex(u8.subarray(at + SALT, at + SALT + 16), s.salt)
      ? writeBase64(u8.subarray(at + ORDER, at + ORDER + MAX_ORDER_BYTES), s.pending_order)
      : -1;
    if (orderLen > 0) {
      this.#f64[(at + STEP) >> 3] = s.pending_step;
      this.#f64[(at + EXPIRES) >> 3] = s.expires_at;
      this.#f64[(at + CHAIN) >> 3] = s.chain_length;
      this.#f64[(at + HINT) >> 3] = s.hint;
      u8.set(s.gene_state, at + GENE);
    }
    this.#i32[(at + ORDER_LEN) >> 2] = Math.max(orderLen, 0); // 0: empty
    Atomics.add(this.#i32, seqAt, 1); // even again
  }

  /** Where put() writes: the session's slot, else the first empty one, else the one expiring first. */
  #slotFor(sessionId: string, tag: number): number {
    let empty = -1;
    let soonest = -1;
    const first = this.#bucket(tag);
    for (let k = 0, at = first; k < WAYS; k++, at += this.#slotBytes) {
      if (this.#holds(at, sessionId, tag)) return at;
      if (this.#i32[(at + ORDER_LEN) >> 2] === 0) {
        if (empty < 0) empty = at;
      } else if (
        soonest < 0 || this.#f64[(at + EXPIRES) >> 3] < this.#f64[(soonest + EXPIRES) >> 3]
      ) {
        soonest = at;
      }
    }
    return empty >= 0 ? empty : soonest;
  }

  /** Drops every session (the store they came from was replaced). The caller holds the write lock. */
  forgetAll(): void {
    for (let at = 0; at < this.capacity * this.#slotBytes; at += this.#slotBytes) {
      const seqAt = (at + SEQ) >> 2;
      if (this.#i32[(at + ORDER_LEN) >> 2] === 0) continue;
      Atomics.add(this.#i32, seqAt, 1);
      this.#i32[(at + ORDER_LEN) >> 2] = 0;
      this.#u8.fill(0, at + ID, at + ID + 32);
      Atomics.add(this.#i32, seqAt, 1);
    }
  }

  /** Drops the session if a slot of its bucket holds it. The caller holds the write lock. */
  forget(sessionId: string): void {
    const tag = this.#tag(sessionId);
    if (Number.isNaN(tag)) return;
    const first = this.#bucket(tag);
    for (let k = 0, at = first; k < WAYS; k++, at += this.#slotBytes) {
      if (!this.#holds(at, sessionId, tag)) continue;
      const seqAt = (at + SEQ) >> 2;
      Atomics.add(this.#i32, seqAt, 1);
      this.#i32[(at + ORDER_LEN) >> 2] = 0;
      this.#u8.fill(0, at + ID, at + ID + 32);
      Atomics.add(this.#i32, seqAt, 1);
    }
  }
}
