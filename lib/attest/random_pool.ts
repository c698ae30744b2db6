/**
 * Random bytes for the heartbeat path, drawn from the system CSPRNG 8 KiB at
 * a time: every accepted heartbeat needs a salt and a mutation order, and one
 * `getRandomValues` call per draw cost more than the draws themselves.
 */
const POOL_BYTES = 8192;
let pool = new Uint8Array(0);
let at = 0;

/**
 * `n` fresh random bytes (n ≤ 8192). The view is only valid until the next
 * call: copy what must be kept.
 */
export function randomBytes(n: number): Uint8Array {
  if (n > POOL_BYTES) throw new RangeError(`At most ${POOL_BYTES} random bytes at once`);
  if (at + n > pool.length) {
    // A new buffer rather than a refill: an earlier view may still be read.
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    at = 0;
  }
  const out = pool.subarray(at, at + n);
  at += n;
  return out;
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** `n` random bytes as lowercase hex. */
export function randomHex(n: number): string {
  const bytes = randomBytes(n);
  let s = "";
  for (let i = 0; i < n; i++) s += HEX_PAIRS[bytes[i]];
  return s;
}
