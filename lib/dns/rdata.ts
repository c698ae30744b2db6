/**
 * Record data per type: presentation text (from the API or a zone file) →
 * one canonical presentation string, which is what the store keeps and what
 * duplicate detection compares, plus the wire bytes the answer index serves.
 * The per-type parsers are in rdata_parsers.ts.
 */
import { ValidationError } from "../errors.ts";
import { MAX_RDATA } from "./rdata_parser.ts";
import { parseByType, Parser } from "./rdata_parsers.ts";
import { splitValue, type Token } from "./tokens.ts";

/** Types the service accepts by name, besides RFC 3597 `TYPEnnn`. */
export const RECORD_TYPES = [
  "A",
  "AAAA",
  "AFSDB",
  "CAA",
  "CDNSKEY",
  "CDS",
  "CERT",
  "CNAME",
  "DNAME",
  "DS",
  "HINFO",
  "HTTPS",
  "KX",
  "LOC",
  "MX",
  "NAPTR",
  "NS",
  "OPENPGPKEY",
  "PTR",
  "RP",
  "SMIMEA",
  "SOA",
  "SPF",
  "SRV",
  "SSHFP",
  "SVCB",
  "TLSA",
  "TXT",
  "URI",
] as const;

const CODES: Record<string, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AFSDB: 18,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  KX: 36,
  CERT: 37,
  DNAME: 39,
  DS: 43,
  SSHFP: 44,
  TLSA: 52,
  SMIMEA: 53,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  URI: 256,
  CAA: 257,
};
const NAMES = new Map(Object.entries(CODES).map(([k, v]) => [v, k]));

// Meta and DNSSEC-signature types cannot be stored as data.
const FORBIDDEN_CODES = new Set([0, 41, 46, 47, 48, 50, 51, 249, 250, 251, 252, 253, 254, 255]);

/** The parsed form of one record's data. */
export interface Rdata {
  /** Canonical presentation; names absolute with a trailing dot. */
  value: string;
  /** RDATA on the wire, without the length prefix. */
  wire: Uint8Array;
  /** The name this record points at (CNAME, DNAME, NS, MX, SRV, PTR), without trailing dot; "" for the root. */
  target?: string;
}

/** Canonical type name: upper case, the mnemonic for a supported code, `TYPEnnn` for others. */
export function normalizeType(input: string, field = "type"): string {
  const t = input.trim().toUpperCase();
  if (t in CODES) return t;
  const m = /^TYPE([0-9]{1,5})$/.exec(t);
  if (m) {
    const code = Number(m[1]);
    if (code > 65535 || FORBIDDEN_CODES.has(code) || (code >= 128 && code <= 255)) {
      throw new ValidationError(`Record type "${input}" is not supported`, field);
    }
    // RFC 3597 §5: TYPEnnn of a type with a mnemonic is that type.
    return NAMES.get(code) ?? `TYPE${code}`;
  }
  throw new ValidationError(`Record type "${input}" is not supported`, field);
}

/** The numeric code of a canonical type name. */
export function typeCode(type: string): number {
  return CODES[type] ?? Number(type.slice(4));
}

/** The canonical type name of a numeric code. */
export function typeName(code: number): string {
  return NAMES.get(code) ?? `TYPE${code}`;
}

/** Context of names inside the data: the zone-file origin, or null when names are absolute (API). */
export type Origin = string | null;

/**
 * Parses `value` (text or tokens) as data of `type` and returns its canonical
 * form and wire bytes; throws ValidationError (400) on malformed data.
 */
export function parseRdata(
  type: string,
  value: string | Token[],
  origin: Origin,
  field = "value",
): Rdata {
  const tokens = typeof value === "string" ? valueTokens(type, value, field) : value;
  const p = new Parser(type, tokens, origin, field);
  const out = parseByType(p);
  p.end();
  // Each parser bounds its fields; this is the backstop for what RDLENGTH can say.
  if (out.wire.length > MAX_RDATA) p.fail(`data is longer than ${MAX_RDATA} bytes`);
  return out;
}

/** TXT given through the API as plain text is one string, not presentation tokens (unless RFC 3597 data). */
function valueTokens(type: string, value: string, field: string): Token[] {
  const text = value.trimStart();
  // RFC 3597 data (`\# 4 03616263`) is the one form of plain text that is not the text itself.
  const generic = /^\\#\s+[0-9]/.test(text);
  if ((type === "TXT" || type === "SPF") && !text.startsWith('"') && !generic) {
    return [{ text: value.replace(/\\/g, "\\\\"), quoted: true }];
  }
  return splitValue(value, field);
}
