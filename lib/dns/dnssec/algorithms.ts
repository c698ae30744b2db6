/**
 * The three signing algorithms (docs/dns.md, "Keys and algorithms"): key
 * generation, the DNSKEY public key field, loading a stored key and signing,
 * all through node:crypto (platform crypto). Signing is synchronous, as the
 * DNS responder signs on a synchronous path and WebCrypto is asynchronous
 * only; generation runs on node:crypto's worker threads.
 */
import { Buffer } from "node:buffer";
import { createPrivateKey, generateKeyPair, type KeyObject, sign as cryptoSign } from "node:crypto";
import { promisify } from "node:util";
import { UnprocessableError } from "../../errors.ts";
import { ALGORITHM_NAMES, type DnssecAlgorithm } from "./types.ts";

/** What a zone is signed with when the request names no algorithm (RFC 8624 §3.1: MUST and small). */
export const DEFAULT_ALGORITHM: DnssecAlgorithm = 13;

/**
 * Key sizes per algorithm, as the API's `bits` reports them: the RSA modulus
 * length; the curve's size for P-256; for Ed25519 the 256 bits of its
 * 32-byte public key (RFC 8032), whose strength is about 128 bits as P-256's.
 */
export const KEY_SIZES: Record<DnssecAlgorithm, { min: number; max: number; default: number }> = {
  8: { min: 2048, max: 4096, default: 2048 },
  13: { min: 256, max: 256, default: 256 },
  15: { min: 256, max: 256, default: 256 },
};

/** A new key pair: the DNSKEY public key field and the private key as PKCS#8 DER. */
export interface GeneratedKey {
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

/** The algorithm named by its mnemonic or number ("ECDSAP256SHA256", "13"); 422 for any other. */
export function parseAlgorithm(input: string | undefined): DnssecAlgorithm {
  if (input === undefined) return DEFAULT_ALGORITHM;
  const text = input.trim().toUpperCase();
  for (const [code, name] of Object.entries(ALGORITHM_NAMES)) {
    if (text === name || text === code) return Number(code) as DnssecAlgorithm;
  }
  const known = Object.entries(ALGORITHM_NAMES).map(([c, n]) => `${n} (${c})`).join(", ");
  throw new UnprocessableError(
    `Algorithm "${input}" is not supported: use one of ${known}`,
    "algorithm",
  );
}

/** The key size for `algorithm`: the default when absent; 422 when the algorithm does not take it. */
export function keySize(algorithm: DnssecAlgorithm, given: number | undefined): number {
  const s = KEY_SIZES[algorithm];
  if (given === undefined) return s.default;
  if (Number.isInteger(given) && given >= s.min && given <= s.max) return given;
  const name = ALGORITHM_NAMES[algorithm];
  throw new UnprocessableError(
    s.min === s.max
      ? `Key size "${given}" does not fit ${name}: its keys are ${s.min} bits (leave key_size out)`
      : `Key size "${given}" does not fit ${name}: use ${s.min} to ${s.max} bits`,
    "key_size",
  );
}

const generatePair = promisify(generateKeyPair);

/**
 * Generates a key pair of `algorithm` (`bits` only matters for RSA). On
 * node:crypto's worker threads: an RSA-4096 key takes seconds, which would
 * stall the DNS listener if generated on the main thread.
 */
export async function generateKey(algorithm: DnssecAlgorithm, bits: number): Promise<GeneratedKey> {
  const pair = algorithm === 8
    ? await generatePair("rsa", { modulusLength: bits, publicExponent: 65537 })
    : algorithm === 13
    ? await generatePair("ec", { namedCurve: "P-256" })
    : await generatePair("ed25519", undefined);
  return {
    publicKey: publicKeyField(algorithm, pair.publicKey),
    privateKey: new Uint8Array(pair.privateKey.export({ format: "der", type: "pkcs8" })),
  };
}

/** A stored private key (PKCS#8 DER). */
export function loadPrivateKey(pkcs8: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.from(pkcs8), format: "der", type: "pkcs8" });
}

const b64url = (s: string | undefined) => new Uint8Array(Buffer.from(s ?? "", "base64url"));

/**
 * The DNSKEY public key field: x‖y, 32 bytes each (RFC 6605 §4); the
 * 32-byte Ed25519 key (RFC 8080 §3); RSA as exponent length, exponent,
 * modulus (RFC 3110 §2), the length in one byte or as 0 and two bytes.
 */
function publicKeyField(algorithm: DnssecAlgorithm, key: KeyObject): Uint8Array {
  const jwk = key.export({ format: "jwk" });
  if (algorithm === 13) {
    const x = b64url(jwk.x), y = b64url(jwk.y);
    if (x.length !== 32 || y.length !== 32) {
      throw new Error("P-256 key coordinates are not 32 bytes");
    }
    return concat([x, y]);
  }
  if (algorithm === 15) return b64url(jwk.x);
  const e = b64url(jwk.e), n = b64url(jwk.n);
  const len = e.length < 256 ? [e.length] : [0, e.length >> 8, e.length & 255];
  return concat([new Uint8Array(len), e, n]);
}

/**
 * A synchronous signer over a loaded private key, in DNSSEC's wire form:
 * ECDSA as r‖s (RFC 6605 §4, "ieee-p1363"), Ed25519 as its 64 bytes
 * (RFC 8080 §4), RSA as the PKCS #1 v1.5 SHA-256 signature (RFC 5702 §3).
 */
export function signerFor(
  algorithm: DnssecAlgorithm,
  key: KeyObject,
): (data: Uint8Array) => Uint8Array {
  if (algorithm === 13) {
    return (data) => new Uint8Array(cryptoSign("sha256", data, { key, dsaEncoding: "ieee-p1363" }));
  }
  if (algorithm === 15) return (data) => new Uint8Array(cryptoSign(null, data, key));
  return (data) => new Uint8Array(cryptoSign("sha256", data, key));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
