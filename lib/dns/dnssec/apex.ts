/**
 * The RRsets a signed zone holds at its apex besides its records: DNSKEY
 * (every key not removed: published, active or retired) and, for parents that scan for them
 * (RFC 7344, RFC 8078), CDS and CDNSKEY of the KSKs — so that a parent
 * operator that reads them can keep the DS in step without the registrar
 * form. They enter the answer index like stored records, so that DNSKEY
 * queries, ANY and the NSEC type bitmaps see them.
 */
import { dsRdata } from "./ds.ts";

export const T_DNSKEY = 48;
export const T_CDS = 59;
export const T_CDNSKEY = 60;

/** A DNSKEY RDATA with the SEP bit (flags 257): a KSK. */
function isKsk(dnskey: Uint8Array): boolean {
  return (dnskey[1] & 1) === 1;
}

/** [type, RDATAs] of the apex key RRsets of zone `apex` serving `dnskeys`. */
export function apexKeyRRsets(apex: string, dnskeys: Uint8Array[]): [number, Uint8Array[]][] {
  if (dnskeys.length === 0) return [];
  const ksks = dnskeys.filter(isKsk);
  return [
    [T_DNSKEY, dnskeys],
    // SHA-256 (digest type 2): the one every parent takes (RFC 8624 §3.3).
    [T_CDS, ksks.map((k) => dsRdata(apex, k, 2))],
    [T_CDNSKEY, ksks],
  ];
}
