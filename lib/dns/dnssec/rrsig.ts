/**
 * RRSIG RDATA (RFC 4034 §3.1) for one RRset and one key: type covered,
 * algorithm, labels, original TTL, expiration, inception, key tag, signer's
 * name, signature over the §3.1.8.1 signing input. The result is RDATA on
 * the wire, independent of presentation; the responder puts it under the
 * RRset's owner (the query name for a wildcard expansion) with the RRset's TTL.
 */
import { canonicalNameWire, canonicalRdatas, rrsetSigningData, rrsigLabels } from "./canonical.ts";
import type { RRsetToSign, SigningKey, Validity } from "./types.ts";

export const T_RRSIG = 46;

/** An RRset reduced to what its signatures depend on besides key, signer and validity. */
export interface PreparedRRset {
  type: number;
  ttl: number;
  labels: number;
  /** The records part of the signing input, in canonical form and order. */
  records: Uint8Array;
}

/** The canonical records of `rrset`, ready to sign with any key; throws RangeError when it has no records. */
export function prepareRRset(rrset: RRsetToSign): PreparedRRset {
  if (rrset.rdatas.length === 0) {
    throw new RangeError(`RRset "${rrset.owner}" of type ${rrset.type} has no records to sign`);
  }
  const rdatas = canonicalRdatas(rrset.type, rrset.rdatas);
  const owner = canonicalNameWire(rrset.owner);
  return {
    type: rrset.type,
    ttl: rrset.ttl >>> 0,
    labels: rrsigLabels(rrset.owner),
    records: rrsetSigningData(owner, rrset.type, rrset.ttl >>> 0, rdatas),
  };
}

/** The RRSIG RDATA fields before the signature (RFC 4034 §3.1), signer's name in canonical form. */
export function rrsigHead(
  p: PreparedRRset,
  key: SigningKey,
  validity: Validity,
  signerWire: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(18 + signerWire.length);
  const v = new DataView(out.buffer);
  v.setUint16(0, p.type);
  out[2] = key.algorithm;
  out[3] = p.labels;
  v.setUint32(4, p.ttl);
  // RFC 4034 §3.1.5: serial number arithmetic, times modulo 2^32.
  v.setUint32(8, validity.expiration >>> 0);
  v.setUint32(12, validity.inception >>> 0);
  v.setUint16(16, key.keyTag);
  out.set(signerWire, 18);
  return out;
}

/** Signs a prepared RRset: the whole RRSIG RDATA. */
export function signPrepared(
  p: PreparedRRset,
  key: SigningKey,
  validity: Validity,
  signerWire: Uint8Array,
): Uint8Array {
  const head = rrsigHead(p, key, validity, signerWire);
  const input = new Uint8Array(head.length + p.records.length);
  input.set(head, 0);
  input.set(p.records, head.length);
  const sig = key.sign(input);
  const out = new Uint8Array(head.length + sig.length);
  out.set(head, 0);
  out.set(sig, head.length);
  return out;
}

/** The RRSIG RDATA of `rrset` signed by `key` for the zone `signer` (its apex, text form). */
export function signRRset(
  rrset: RRsetToSign,
  signer: string,
  key: SigningKey,
  validity: Validity,
): Uint8Array {
  return signPrepared(prepareRRset(rrset), key, validity, canonicalNameWire(signer));
}
