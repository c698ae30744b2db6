/**
 * Sliding-window rate limits shared by every thread serving the attestation
 * listener: at most `max` requests per `windowMs` per key (the heartbeat limit
 * is per session_id, checked before the session lookup). The kernel spreads
 * connections over the serving threads, so one session's requests can reach
 * any of them; the table therefore lives in a SharedArrayBuffer, guarded by a
 * futex-style lock (the critical section is a few hundred nanoseconds).
 *
 * The table is an open-addressing hash table of fixed size: keys come from
 * clients, so memory is bounded. A slot whose newest request has left the
 * window is free for reuse; when every slot a key may use is live, the one
 * idle the longest is dropped (its key starts a fresh window, as the evicted
 * keys of a map-based limiter would).
 */
import { SharedMutex } from "./shared_mutex.ts";

/** Key length kept exactly; longer keys are folded (none are: session ids are 64 hex). */
const KEY_CHARS = 64;
/** Slots a key may occupy, starting at its hash. */
const PROBE = 32;

// Slot layout in 32-bit words: key length, key (UTF-16 pairs), then `max` request times (f64).
const LEN = 0;
const KEY = 1;
const KEY_WORDS = KEY_CHARS / 2;
/** Lock word, then padding so that the slots start 8-byte aligned. */
const HEADER_BYTES = 8;

/** What a limiter's table is made of: pass it to another thread to share the limits. */
export interface LimiterTable {
  buffer: SharedArrayBuffer;
  max: number;
  windowMs: number;
  slots: number;
}

export class SlidingWindowLimiter {
  readonly max: number;
  readonly windowMs: number;
  readonly table: LimiterTable;
  readonly #lock: SharedMutex;
  readonly #u32: Uint32Array;
  readonly #f64: Float64Array;
  readonly #slotWords: number;
  readonly #mask: number;

  /**
   * A new table (`slots`, a power of two, bounds the keys tracked at once), or
   * a view of `table` made by another thread's limiter.
   */
  constructor(max: number, windowMs: number, slots?: number);
  constructor(table: LimiterTable);
  constructor(a: number | LimiterTable, windowMs = 10_000, slots = 65_536) {
    if (typeof a === "number") {
      if (!Number.isInteger(slots) || slots < PROBE || (slots & (slots - 1)) !== 0) {
        throw new RangeError(`Limiter slots must be a power of two ≥ ${PROBE}, not ${slots}`);
      }
      const slotBytes = (1 + KEY_WORDS) * 4 + 4 + a * 8;
      a = {
        buffer: new SharedArrayBuffer(HEADER_BYTES + slots * slotBytes),
        max: a,
        windowMs,
        slots,
      };
    }
    this.table = a;
    this.max = a.max;
    this.windowMs = a.windowMs;
    this.#mask = a.slots - 1;
    // Words per slot: length, key, one word of padding, then max f64 times (8-byte aligned).
    this.#slotWords = 1 + KEY_WORDS + 1 + a.max * 2;
    this.#lock = new SharedMutex(a.buffer, 0);
    this.#u32 = new Uint32Array(a.buffer, HEADER_BYTES);
    this.#f64 = new Float64Array(a.buffer, HEADER_BYTES);
  }

  /** Records a request for `key` at `now`; false when it exceeds the limit. */
  allow(key: string, now: number): boolean {
    if (key.length > KEY_CHARS) key = fold(key);
    this.#lock.lock();
    try {
      const slot = this.#find(key, now);
      // Times are kept newest first; the oldest of the last `max` decides.
      const t = this.#times(slot);
      const f = this.#f64;
      // Unused time entries are -Infinity, so a key's first `max` requests pass.
      const allowed = now - f[t + this.max - 1] >= this.windowMs;
      for (let i = this.max - 1; i > 0; i--) f[t + i] = f[t + i - 1];
      f[t] = now;
      return allowed;
    } finally {
      this.#lock.unlock();
    }
  }

  /** The slot (word index) holding `key`, claimed for it when absent. */
  #find(key: string, now: number): number {
    const u = this.#u32;
    let free = -1;
    let stalest = -1;
    const start = hash(key) & this.#mask;
    for (let i = 0; i < PROBE; i++) {
      const slot = ((start + i) & this.#mask) * this.#slotWords;
      const len = u[slot + LEN];
      if (len === 0) {
        // Never used: the key is not further along the probe sequence.
        if (free < 0) free = slot;
        break;
      }
      if (len - 1 === key.length && this.#keyIs(slot, key)) return slot;
      const last = this.#f64[this.#times(slot)];
      if (free < 0 && now - last >= this.windowMs) free = slot;
      if (stalest < 0 || last < this.#f64[this.#times(stalest)]) stalest = slot;
    }
    const slot = free >= 0 ? free : stalest;
    u[slot + LEN] = key.length + 1;
    for (let i = 0; i < key.length; i += 2) {
      u[slot + KEY + i / 2] = key.charCodeAt(i) | ((key.charCodeAt(i + 1) || 0) << 16);
    }
    const t = this.#times(slot);
    this.#f64.fill(-Infinity, t, t + this.max);
    return slot;
  }

  /** Index in the f64 view of a slot's request times (newest first). */
  #times(slot: number): number {
    return (slot + this.#slotWords - this.max * 2) / 2;
  }

  #keyIs(slot: number, key: string): boolean {
    const u = this.#u32;
    for (let i = 0; i < key.length; i += 2) {
      const w = key.charCodeAt(i) | ((key.charCodeAt(i + 1) || 0) << 16);
      if (u[slot + KEY + i / 2] !== w >>> 0) return false;
    }
    return true;
  }
}

/** FNV-1a over UTF-16 code units. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A key longer than KEY_CHARS as a prefix and the hash of the whole. */
function fold(key: string): string {
  return key.slice(0, KEY_CHARS - 8) + hash(key).toString(16).padStart(8, "0");
}
