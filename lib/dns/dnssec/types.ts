/**
 * The contract between DNSSEC's parts (docs/dns.md, "DNSSEC"): key material
 * (keys.ts, algorithms.ts) hands the signer a `SigningKey`; the signer
 * (canonical.ts, rrsig.ts, signer.ts) and denial (denial.ts) work on RRsets
 * in the answer index's wire form; the responder only calls `ZoneSigner`.
 */

/** The algorithms Palisade signs with (RFC 8624 recommends 13 and 15; 8 for old validators). */
export type DnssecAlgorithm = 8 | 13 | 15;

export const ALGORITHM_NAMES: Record<DnssecAlgorithm, string> = {
  8: "RSASHA256",
  13: "ECDSAP256SHA256",
  15: "ED25519",
};

/** KSK signs the DNSKEY RRset (flags 257, SEP); ZSK signs the rest (flags 256). */
export type KeyType = "KSK" | "ZSK";

/** One key able to sign, as the signer needs it. */
export interface SigningKey {
  algorithm: DnssecAlgorithm;
  /** RFC 4034 Appendix B key tag of the key's DNSKEY RDATA. */
  keyTag: number;
  /** 257 for a KSK, 256 for a ZSK. */
  flags: 256 | 257;
  /** The DNSKEY RDATA (flags, protocol 3, algorithm, public key) on the wire. */
  dnskey: Uint8Array;
  /**
   * Signs `data` (the RFC 4034 §3.1.8.1 signing input) and returns the
   * signature in DNSSEC's wire form: r‖s for ECDSA (RFC 6605), the 64-byte
   * Ed25519 signature (RFC 8080), the PKCS #1 v1.5 signature for RSA (RFC 5702).
   * Synchronous: the DNS responder answers from a synchronous path.
   */
  sign(data: Uint8Array): Uint8Array;
}

/** An RRset to sign, in the answer index's form (lib/dns/zone_index.ts). */
export interface RRsetToSign {
  /** Owner as stored: lowercase, `\DDD` escapes, no trailing dot; "*" first for a wildcard. */
  owner: string;
  type: number;
  /** The original TTL (RFC 4034 §3.1.4). */
  ttl: number;
  /** RDATA on the wire, names uncompressed. */
  rdatas: Uint8Array[];
}

/** Signature validity: inception back-dated against clock skew, expiration ahead. */
export interface Validity {
  /** Unix seconds. */
  inception: number;
  /** Unix seconds. */
  expiration: number;
}
