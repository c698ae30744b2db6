/**
 * Signing keys for the DNSSEC signing tests, made here with node:crypto so
 * that these tests do not depend on the key store: the DNSKEY public key
 * field per RFC 6605 §4 (ECDSA P-256: x‖y), RFC 8080 §3 (Ed25519: the 32
 * raw bytes) and RFC 3110 §2 (RSA: exponent length, exponent, modulus), and
 * the key tag of RFC 4034 Appendix B. dnspython checks both independently:
 * it finds the key for an RRSIG by recomputing the tag.
 */
import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import type { DnssecAlgorithm, SigningKey } from "../../lib/dns/dnssec/types.ts";

function b64url(s: string): Uint8Array {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - s.length % 4) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

function publicKeyField(alg: DnssecAlgorithm, pub: KeyObject): Uint8Array {
  const jwk = pub.export({ format: "jwk" });
  if (alg === 13) return new Uint8Array([...b64url(jwk.x!), ...b64url(jwk.y!)]);
  if (alg === 15) return b64url(jwk.x!);
  const e = b64url(jwk.e!);
  const n = b64url(jwk.n!);
  const len = e.length < 256 ? [e.length] : [0, e.length >> 8, e.length & 255];
  return new Uint8Array([...len, ...e, ...n]);
}

/** RFC 4034 Appendix B. */
export function keyTag(rdata: Uint8Array): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i] : rdata[i] << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

function pair(alg: DnssecAlgorithm) {
  if (alg === 13) return generateKeyPairSync("ec", { namedCurve: "P-256" });
  if (alg === 15) return generateKeyPairSync("ed25519");
  return generateKeyPairSync("rsa", { modulusLength: 2048 });
}

/** A fresh key of `alg`: a ZSK (flags 256) unless `ksk`. */
export function testSigningKey(alg: DnssecAlgorithm, ksk = false): SigningKey {
  const { publicKey, privateKey } = pair(alg);
  const flags = ksk ? 257 : 256;
  const dnskey = new Uint8Array([
    flags >> 8,
    flags & 255,
    3,
    alg,
    ...publicKeyField(alg, publicKey),
  ]);
  return {
    algorithm: alg,
    keyTag: keyTag(dnskey),
    flags,
    dnskey,
    sign(data) {
      if (alg === 13) {
        return sign("sha256", data, { key: privateKey, dsaEncoding: "ieee-p1363" });
      }
      return sign(alg === 15 ? null : "sha256", data, privateKey);
    },
  };
}

export const ALGORITHMS: DnssecAlgorithm[] = [13, 15, 8];

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
