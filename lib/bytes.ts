/**
 * Hex and base64 for the server, on the platform's own codecs
 * (`Uint8Array.prototype.toHex`, `setFromHex`, `toBase64`, `setFromBase64`,
 * in Deno since V8 gained them): they run several times per heartbeat, and a
 * pattern or a per-byte loop costs several times more. Strict where input
 * comes from clients: exact lengths, canonical base64 only. The browser
 * module has its own copies with fallbacks for older browsers
 * (`wasm/glue.ts`); the server does not use those.
 */

interface NativeBytes {
  toHex(): string;
  toBase64(opts?: { alphabet: "base64url"; omitPadding: boolean }): string;
  setFromHex(hex: string): { read: number; written: number };
  setFromBase64(b64: string, opts: { lastChunkHandling: "strict" }): {
    read: number;
    written: number;
  };
}

const native = (bytes: Uint8Array) => bytes as unknown as NativeBytes;

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return native(bytes).toHex();
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  return native(bytes).toBase64();
}

/** base64url without padding (RFC 4648 §5), as tokens, tickets and WebAuthn use it. */
export function toBase64Url(bytes: Uint8Array): string {
  return native(bytes).toBase64({ alphabet: "base64url", omitPadding: true });
}

/**
 * Bytes of base64url, padded or not; throws SyntaxError on other characters.
 * For values this server wrote or a library hands over, not for strict
 * checks of client input (writeBase64 is those).
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const fromBase64 = (Uint8Array as unknown as {
    fromBase64(s: string, o: { alphabet: "base64url" }): Uint8Array<ArrayBuffer>;
  }).fromBase64;
  return fromBase64(text, { alphabet: "base64url" });
}

/**
 * Decodes a hex string of exactly `target.length` bytes (either case) into
 * `target`, which may be a view of WASM or shared memory: no allocation.
 * False (target unspecified) when malformed.
 */
export function writeHex(target: Uint8Array, hex: unknown): boolean {
  if (typeof hex !== "string" || hex.length !== target.length * 2) return false;
  try {
    return native(target).setFromHex(hex).written === target.length;
  } catch {
    return false; // a character outside 0-9a-fA-F
  }
}

/** Where isHex() decodes to; it only wants to know whether decoding succeeds. */
const hexScratch = new Uint8Array(64);

/** True when `hex` is exactly `byteLength` bytes of hex (either case). */
export function isHex(hex: unknown, byteLength: number): boolean {
  if (typeof hex !== "string" || hex.length !== byteLength * 2) return false;
  const target = byteLength <= hexScratch.length ? hexScratch : new Uint8Array(byteLength);
  try {
    return native(target).setFromHex(hex).read === hex.length;
  } catch {
    return false;
  }
}

/**
 * Decodes canonical base64 (padding required, no whitespace, zero padding
 * bits) into the start of `target`; the number of bytes written, or -1 when
 * `b64` is not canonical base64 or does not fit (target unspecified then).
 */
export function writeBase64(target: Uint8Array, b64: unknown): number {
  if (typeof b64 !== "string" || b64.length % 4 !== 0) return -1;
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  const length = b64.length / 4 * 3 - pad;
  if (length > target.length) return -1;
  try {
    // The strict decoder refuses non-zero padding bits and skips whitespace;
    // skipped whitespace shows as fewer bytes than the length promises.
    const { read, written } = native(target).setFromBase64(b64, { lastChunkHandling: "strict" });
    return read === b64.length && written === length ? length : -1;
  } catch {
    return -1;
  }
}

/** Bytes of canonical standard base64 (as writeBase64() accepts it), null otherwise. */
export function fromBase64(b64: unknown): Uint8Array | null {
  if (typeof b64 !== "string") return null;
  const out = new Uint8Array(Math.ceil(b64.length / 4) * 3);
  const n = writeBase64(out, b64);
  return n < 0 ? null : n === out.length ? out : out.slice(0, n);
}
