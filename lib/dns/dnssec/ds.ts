/**
 * DS records of a zone's KSK, for its parent (RFC 4034 §5.1.4): the digest
 * of the owner name in canonical wire form followed by the DNSKEY RDATA.
 * Digest type 2 (SHA-256, RFC 4509) always; 4 (SHA-384, RFC 6605 §2) too
 * for the elliptic-curve algorithms, as RFC 6605 pairs them.
 */
import { createHash } from "node:crypto";
import { nameWire } from "../encode.ts";
import { hexOf } from "../rdata_parser.ts";
import { keyTag } from "./keys.ts";
import type { DnssecAlgorithm } from "./types.ts";

export type DigestType = 2 | 4;

const HASHES: Record<DigestType, string> = { 2: "sha256", 4: "sha384" };

/** A DS record as the API shows it (specs/dns.md, "DS record"): numbers as strings, digest in hex. */
export interface DsRecord {
  key_tag: string;
  algorithm: string;
  digest_type: string;
  digest: string;
}

/** The digest types published for `algorithm`. */
export function digestTypes(algorithm: DnssecAlgorithm): DigestType[] {
  return algorithm === 8 ? [2] : [2, 4];
}

/** The owner in canonical wire form (RFC 4034 §6.2): uncompressed, ASCII letters lowercase. */
function canonicalOwner(owner: string): Uint8Array {
  const wire = nameWire(owner === "." ? "" : owner.replace(/\.$/, ""));
  // Length bytes are at most 63, below "A" (65): lowering every byte in A–Z touches only letters.
  return wire.map((b) => (b >= 65 && b <= 90 ? b + 32 : b));
}

/** The DS digest of DNSKEY RDATA `dnskey` at `owner`. */
export function dsDigest(owner: string, dnskey: Uint8Array, digestType: DigestType): Uint8Array {
  const h = createHash(HASHES[digestType]);
  h.update(canonicalOwner(owner));
  h.update(dnskey);
  return new Uint8Array(h.digest());
}

/** DS RDATA: key tag, algorithm, digest type, digest (RFC 4034 §5.1). */
export function dsRdata(owner: string, dnskey: Uint8Array, digestType: DigestType): Uint8Array {
  const digest = dsDigest(owner, dnskey, digestType);
  const tag = keyTag(dnskey);
  const out = new Uint8Array(4 + digest.length);
  out.set([tag >> 8, tag & 255, dnskey[3], digestType]);
  out.set(digest, 4);
  return out;
}

/** The DS record of DNSKEY RDATA `dnskey` at `owner`, in the API's shape. */
export function dsRecord(owner: string, dnskey: Uint8Array, digestType: DigestType): DsRecord {
  return {
    key_tag: String(keyTag(dnskey)),
    algorithm: String(dnskey[3]),
    digest_type: String(digestType),
    digest: hexOf(dsDigest(owner, dnskey, digestType)),
  };
}

/** The DS record as a master file line for the parent: `example.com. IN DS 12345 13 2 ABCD…`. */
export function dsPresentation(owner: string, ds: DsRecord): string {
  const name = owner.endsWith(".") ? owner : `${owner}.`;
  return `${name} IN DS ${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest}`;
}
