/**
 * Ed25519 on the server: `node:crypto` verification (native, the fastest
 * verifier here by far) with parsed keys cached, and public-key validation
 * with `@noble/curves` (once per session, at init).
 */
import { createPrivateKey, createPublicKey, type KeyObject, verify } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { Buffer } from "node:buffer";
import { writeHex } from "../bytes.ts";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const HEX64 = /^[0-9a-f]{64}$/i;
const encoder = new TextEncoder();
/** DER prefix of an Ed25519 PKCS#8 private key; the 32 seed bytes follow. */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** A `node:crypto` private key from a 32-byte RFC 8032 seed (for the reference client, tests and vectors). */
export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError(`An Ed25519 seed has 32 bytes, not ${seed.length}`);
  return createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
}

/** The raw 32-byte public key of a `node:crypto` Ed25519 key, as hex. */
export function rawPublicKeyHex(key: KeyObject): string {
  // The SPKI DER of an Ed25519 key is a 12-byte header followed by the raw key.
  const pub = key.type === "public" ? key : createPublicKey(key);
  return Buffer.from(pub.export({ format: "der", type: "spki" })).subarray(12).toString("hex");
}

/**
 * True when `hex` is 64 hex characters encoding a valid Ed25519 point that is
 * not of small order (a small-order key would accept forged signatures).
 */
export function isValidPublicKey(hex: string): boolean {
  if (!HEX64.test(hex)) return false;
  try {
    const point = ed25519.Point.fromHex(hex.toLowerCase());
    return !point.isSmallOrder();
  } catch {
    return false;
  }
}

/**
 * Verifies Ed25519 signatures, keeping up to `capacity` parsed keys. When
 * full, the oldest parsed key is dropped (no recency bookkeeping on hits:
 * it cost more per heartbeat than parsing a key once more per session).
 */
export class Ed25519Verifier {
  #keys = new Map<string, KeyObject>();
  /** Reused for the message bytes: a heartbeat payload is ~1.5 KB, encoded once per heartbeat. */
  #message = new Uint8Array(16 * 1024);
  /** Reused for the signature bytes (verify() is synchronous): no allocation per heartbeat. */
  #signature = new Uint8Array(64);

  constructor(private readonly capacity = 50_000) {}

  #key(publicKeyHex: string): KeyObject {
    let key = this.#keys.get(publicKeyHex);
    if (key) return key;
    const der = Buffer.alloc(SPKI_PREFIX.length + 32);
    der.set(SPKI_PREFIX);
    if (!writeHex(der.subarray(SPKI_PREFIX.length), publicKeyHex)) {
      throw new TypeError("An Ed25519 public key is 64 hex digits");
    }
    key = createPublicKey({
      key: der,
      format: "der",
      type: "spki",
    });
    if (this.#keys.size >= this.capacity) this.#keys.delete(this.#keys.keys().next().value!);
    this.#keys.set(publicKeyHex, key);
    return key;
  }

  /**
   * Parses and keeps a session's key ahead of its first heartbeat (at `/init`,
   * on the thread that created the session). False when it does not parse.
   */
  prime(publicKeyHex: string): boolean {
    try {
      this.#key(publicKeyHex);
      return true;
    } catch {
      return false;
    }
  }

  /** True when `signatureHex` (128 hex) signs the UTF-8 `message` under the key. */
  verify(publicKeyHex: string, message: string, signatureHex: string): boolean {
    // The platform's hex decoder (Buffer's validates with a regular expression first).
    const signature = this.#signature;
    if (!writeHex(signature, signatureHex)) return false;
    try {
      // At most 3 UTF-8 bytes per UTF-16 unit: encode in place when that surely fits.
      const bytes = message.length * 3 <= this.#message.length
        ? this.#message.subarray(0, encoder.encodeInto(message, this.#message).written)
        : encoder.encode(message);
      return verify(null, bytes, this.#key(publicKeyHex), signature);
    } catch {
      return false;
    }
  }
}
