/**
 * Records that carry keys and certificates in base64: CDNSKEY (RFC 7344,
 * DNSKEY's format, with RFC 8078's delete form), OPENPGPKEY (RFC 7929) and
 * CERT (RFC 4398). Base64 is stored canonical: padded, without spaces.
 */
import type { Rdata } from "./rdata.ts";
import { base64, concat, MAX_RDATA, type Parser, type WireReader } from "./rdata_parser.ts";

const u16 = (n: number) => new Uint8Array([n >> 8, n & 255]);

/** DNSKEY flags defined by RFC 4034 §2.1.1 and RFC 5011 §3: Zone Key, REVOKE, SEP. */
const ZONE_KEY = 0x0100;
const DEFINED_FLAGS = ZONE_KEY | 0x0080 | 0x0001;

/** Public key lengths fixed by the algorithm (RFC 6605 §4, RFC 8080 §3). */
const KEY_LENGTHS: Record<number, [string, number]> = {
  13: ["ECDSAP256SHA256", 64],
  14: ["ECDSAP384SHA384", 96],
  15: ["ED25519", 32],
  16: ["ED448", 57],
};

/**
 * CDNSKEY: flags (the Zone Key bit set; no bit RFC 4034 and RFC 5011 leave
 * reserved), protocol 3 (RFC 4034 §2.1.2), an algorithm other than 0 and the
 * public key. `0 3 0 AA==` is RFC 8078 §4's request to delete the DS RRset.
 */
export function parseCdnskey(p: Parser): Rdata {
  const flags = p.int("flags", 65535);
  const protocol = p.int("protocol", 255);
  const algorithm = p.int("algorithm", 255);
  const key = p.base64("public key", MAX_RDATA - 4);
  if (protocol !== 3) p.fail(`protocol ${protocol} is not 3 (RFC 4034 §2.1.2)`);
  const wire = concat([u16(flags), new Uint8Array([protocol, algorithm]), key]);
  if (algorithm === 0 || flags === 0) {
    if (flags !== 0 || algorithm !== 0 || key.length !== 1 || key[0] !== 0) {
      p.fail('flags 0 and algorithm 0 are only the RFC 8078 delete form "0 3 0 AA=="');
    }
    return { value: "0 3 0 AA==", wire };
  }
  if (!(flags & ZONE_KEY)) p.fail(`flags ${flags} lack the Zone Key bit (256)`);
  if (flags & ~DEFINED_FLAGS) p.fail(`flags ${flags} set bits RFC 4034 reserves`);
  const fixed = KEY_LENGTHS[algorithm];
  if (fixed && key.length !== fixed[1]) {
    p.fail(
      `public key is ${key.length} bytes, but algorithm ${algorithm} (${fixed[0]}) takes ${
        fixed[1]
      }`,
    );
  }
  return { value: `${flags} ${protocol} ${algorithm} ${base64(key)}`, wire };
}

export function cdnskeyText(r: WireReader): string {
  return `${r.u16("flags")} ${r.u8("protocol")} ${r.u8("algorithm")} ${base64OrEmpty(r.rest())}`;
}

/** OPENPGPKEY: one transferable public key (RFC 7929 §2.1), in base64. */
export function parseOpenpgpkey(p: Parser): Rdata {
  const key = p.base64("key", MAX_RDATA);
  return { value: base64(key), wire: key };
}

export function openpgpkeyText(r: WireReader): string {
  return base64OrEmpty(r.rest());
}

/** CERT types by mnemonic (RFC 4398 §2.1); 0, 255 and 65535 are reserved. */
const CERT_TYPES: Record<string, number> = {
  PKIX: 1,
  SPKI: 2,
  PGP: 3,
  IPKIX: 4,
  ISPKI: 5,
  IPGP: 6,
  ACPKIX: 7,
  IACPKIX: 8,
  URI: 253,
  OID: 254,
};

/** DNSSEC algorithm mnemonics CERT's algorithm field may be written with (RFC 4398 §2.1, RFC 8624). */
const ALGORITHMS: Record<string, number> = {
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  "DSA-NSEC3-SHA1": 6,
  "RSASHA1-NSEC3-SHA1": 7,
  RSASHA256: 8,
  RSASHA512: 10,
  "ECC-GOST": 12,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
  INDIRECT: 252,
  PRIVATEDNS: 253,
  PRIVATEOID: 254,
};

/** A number or its mnemonic in `table`. */
function mnemonic(p: Parser, what: string, max: number, table: Record<string, number>): number {
  const t = p.tokens[p.i]?.text.toUpperCase();
  if (t !== undefined && t in table) {
    p.i++;
    return table[t];
  }
  return p.int(what, max);
}

/**
 * CERT: type (number or mnemonic; the reserved 0, 255 and 65535 refused),
 * key tag, algorithm (number or mnemonic) and the certificate or CRL. The
 * canonical form writes numbers, as Knot prints them (BIND prints mnemonics).
 */
export function parseCert(p: Parser): Rdata {
  const type = mnemonic(p, "type", 65535, CERT_TYPES);
  if (type === 0 || type === 255 || type === 65535) p.fail(`type ${type} is reserved`);
  const keyTag = p.int("key tag", 65535);
  const algorithm = mnemonic(p, "algorithm", 255, ALGORITHMS);
  const cert = p.base64("certificate", MAX_RDATA - 5);
  return {
    value: `${type} ${keyTag} ${algorithm} ${base64(cert)}`,
    wire: concat([u16(type), u16(keyTag), new Uint8Array([algorithm]), cert]),
  };
}

export function certText(r: WireReader): string {
  const head = `${r.u16("type")} ${r.u16("key tag")} ${r.u8("algorithm")}`;
  return `${head} ${base64OrEmpty(r.rest())}`;
}

/** Base64 of data read from the wire; no data at all is written so that the parser refuses it. */
function base64OrEmpty(bytes: Uint8Array): string {
  return bytes.length ? base64(bytes) : "";
}
