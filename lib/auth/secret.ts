/** Small helpers for random secrets and their hashes. */
import { createHash, timingSafeEqual } from "node:crypto";
import { toBase64Url } from "../bytes.ts";

/** `n` random bytes as base64url without padding. */
export function randomToken(n = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(n)));
}

/** SHA-256 of a UTF-8 string, hex. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Constant-time equality of two hex or ASCII strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = new TextEncoder().encode(a);
  const bb = new TextEncoder().encode(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
