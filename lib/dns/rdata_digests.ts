/**
 * Records that carry a digest or certificate data in hex: DS and CDS, SSHFP,
 * TLSA and SMIMEA. Where the registry fixes a digest's length, any other length
 * is refused here: BIND's dig answers FORMERR for a whole message that holds
 * an SSHFP or DS whose digest is the wrong size.
 */
import type { Rdata } from "./rdata.ts";
import {
  concat,
  hexBytes,
  hexOf,
  MAX_RDATA,
  type Parser,
  type WireReader,
} from "./rdata_parser.ts";

/** Digest lengths in bytes, by DS digest type (RFC 4034, 4509, 5933, 6605). */
const DS_DIGESTS: Record<number, [string, number]> = {
  1: ["SHA-1", 20],
  2: ["SHA-256", 32],
  3: ["GOST R 34.11-94", 32],
  4: ["SHA-384", 48],
};

/** Fingerprint lengths in bytes, by SSHFP fingerprint type (RFC 4255, 6594). */
const SSHFP_DIGESTS: Record<number, [string, number]> = {
  1: ["SHA-1", 20],
  2: ["SHA-256", 32],
};

/** Data lengths in bytes, by TLSA/SMIMEA matching type (RFC 6698 §2.1.3); 0 is the full data. */
const MATCHING_DIGESTS: Record<number, [string, number]> = {
  1: ["SHA-256", 32],
  2: ["SHA-512", 64],
};

/** Hex data after `fixed` bytes of fields, of the length `table` sets for `kind` when it sets one. */
function digest(
  p: Parser,
  what: string,
  fixed: number,
  table: Record<number, [string, number]>,
  kind: number,
  kindName: string,
): string {
  const hex = p.hex(what, MAX_RDATA - fixed);
  const known = table[kind];
  if (known && hex.length / 2 !== known[1]) {
    p.fail(
      `${what} is ${hex.length / 2} bytes, but ${kindName} ${kind} (${known[0]}) takes ${known[1]}`,
    );
  }
  return hex;
}

/** Value 0 is reserved in the registries of these fields: no record may carry it. */
function notReserved(p: Parser, what: string, value: number): number {
  if (value === 0) p.fail(`${what} 0 is reserved`);
  return value;
}

export function parseDs(p: Parser): Rdata {
  return ds(p, false);
}

/**
 * CDS (RFC 7344 §3.1) is DS's format; RFC 8078 §4 adds `0 0 0 00`, asking
 * the parent to delete the DS RRset, the one place algorithm and digest
 * type 0 may appear.
 */
export function parseCds(p: Parser): Rdata {
  return ds(p, true);
}

function ds(p: Parser, cds: boolean): Rdata {
  const keyTag = p.int("key tag", 65535);
  const rawAlgorithm = p.int("algorithm", 255);
  const rawDigestType = p.int("digest type", 255);
  if (cds && rawAlgorithm === 0 && rawDigestType === 0) {
    if (keyTag !== 0 || p.hex("digest", MAX_RDATA) !== "00") {
      p.fail('algorithm 0 and digest type 0 are only the RFC 8078 delete form "0 0 0 00"');
    }
    return { value: "0 0 0 00", wire: new Uint8Array([0, 0, 0, 0, 0]) };
  }
  const algorithm = notReserved(p, "algorithm", rawAlgorithm);
  const digestType = notReserved(p, "digest type", rawDigestType);
  const hex = digest(p, "digest", 4, DS_DIGESTS, digestType, "digest type");
  const head = new Uint8Array([keyTag >> 8, keyTag & 255, algorithm, digestType]);
  return {
    value: `${keyTag} ${algorithm} ${digestType} ${hex}`,
    wire: concat([head, hexBytes(hex)]),
  };
}

export function parseSshfp(p: Parser): Rdata {
  const algorithm = notReserved(p, "algorithm", p.int("algorithm", 255));
  const hash = notReserved(p, "fingerprint type", p.int("fingerprint type", 255));
  const fp = digest(p, "fingerprint", 2, SSHFP_DIGESTS, hash, "fingerprint type");
  return {
    value: `${algorithm} ${hash} ${fp}`,
    wire: concat([new Uint8Array([algorithm, hash]), hexBytes(fp)]),
  };
}

/** TLSA (RFC 6698) and SMIMEA (RFC 8162) share one format. */
export function parseTlsa(p: Parser): Rdata {
  const usage = p.int("usage", 255);
  const selector = p.int("selector", 255);
  const matchingType = p.int("matching type", 255);
  const cert = digest(
    p,
    "certificate data",
    3,
    MATCHING_DIGESTS,
    matchingType,
    "matching type",
  );
  return {
    value: `${usage} ${selector} ${matchingType} ${cert}`,
    wire: concat([new Uint8Array([usage, selector, matchingType]), hexBytes(cert)]),
  };
}

/** Presentation of DS/CDS RDATA read from the wire. */
export function dsText(r: WireReader): string {
  return `${r.u16("key tag")} ${r.u8("algorithm")} ${r.u8("digest type")} ${hexOf(r.rest())}`;
}

export function sshfpText(r: WireReader): string {
  return `${r.u8("algorithm")} ${r.u8("fingerprint type")} ${hexOf(r.rest())}`;
}

export function tlsaText(r: WireReader): string {
  return `${r.u8("usage")} ${r.u8("selector")} ${r.u8("matching type")} ${hexOf(r.rest())}`;
}
