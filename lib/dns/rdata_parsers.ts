/**
 * One codec per record type: RDATA tokens → canonical presentation and wire
 * bytes (see rdata.ts), and the reader of the type's wire form that RFC 3597
 * generic data (`\# <length> <hex>`) of a known type goes through, so that it
 * is checked by the same parser and stored in the type's presentation. Every
 * field is checked against its RFC and bounded by what the wire format
 * carries, so that what is stored can always be served and read by BIND,
 * Knot and dnspython; types without a codec take RFC 3597's generic form.
 * The families are in rdata_digests.ts (DS, CDS, SSHFP, TLSA), rdata_naptr.ts,
 * rdata_hosts.ts (HINFO, RP, AFSDB, KX, URI), rdata_keys.ts (CDNSKEY, CERT,
 * OPENPGPKEY), rdata_loc.ts and rdata_svcb.ts (SVCB, HTTPS).
 */
import { UnprocessableError } from "../errors.ts";
import { fqdn } from "./names.ts";
import type { Rdata } from "./rdata.ts";
import { ipv4Bytes, ipv6Canonical, ipv6Text } from "./rdata_addr.ts";
import {
  dsText,
  parseCds,
  parseDs,
  parseSshfp,
  parseTlsa,
  sshfpText,
  tlsaText,
} from "./rdata_digests.ts";
import {
  hinfoText,
  numberAndNameText,
  parseAfsdb,
  parseHinfo,
  parseKx,
  parseRp,
  parseUri,
  rpText,
  uriText,
} from "./rdata_hosts.ts";
import {
  cdnskeyText,
  certText,
  openpgpkeyText,
  parseCdnskey,
  parseCert,
  parseOpenpgpkey,
} from "./rdata_keys.ts";
import { locText, parseLoc } from "./rdata_loc.ts";
import { naptrText, parseNaptr } from "./rdata_naptr.ts";
import { hexBytes, MAX_RDATA, Parser, wireOf, WireReader } from "./rdata_parser.ts";
import { parseSvcb, svcbText } from "./rdata_svcb.ts";
import { quoteBytes, splitValue, unescapeBytes } from "./tokens.ts";

export { Parser } from "./rdata_parser.ts";

type RdataParser = (p: Parser) => Rdata;

function parseA(p: Parser): Rdata {
  const t = p.next("address").text;
  const wire = ipv4Bytes(t) ?? p.fail(`"${t}" is not an IPv4 address`);
  return { value: wire.join("."), wire };
}

function parseAaaa(p: Parser): Rdata {
  const t = p.next("address").text;
  const value = ipv6Canonical(t) ?? p.fail(`"${t}" is not an IPv6 address`);
  return { value, wire: wireOf("AAAA", value) };
}

/** CNAME, DNAME, NS, PTR: one target name. */
function parseTarget(p: Parser): Rdata {
  const target = p.name("target");
  return { value: fqdn(target), wire: wireOf(p.type, fqdn(target)), target };
}

function parseMx(p: Parser): Rdata {
  const preference = p.int("preference", 65535);
  const target = p.name("exchange");
  return {
    value: `${preference} ${fqdn(target)}`,
    wire: wireOf("MX", { preference, exchange: fqdn(target) }),
    target,
  };
}

function parseSrv(p: Parser): Rdata {
  const priority = p.int("priority", 65535);
  const weight = p.int("weight", 65535);
  const port = p.int("port", 65535);
  const target = p.name("target");
  return {
    value: `${priority} ${weight} ${port} ${fqdn(target)}`,
    wire: wireOf("SRV", { priority, weight, port, target: fqdn(target) }),
    target,
  };
}

/** TXT, SPF: character-strings. */
function parseText(p: Parser): Rdata {
  const chunks: Uint8Array[] = [];
  for (const t of p.rest) {
    const b = unescapeBytes(t.text, p.field);
    // RFC 1035 character-strings hold 255 bytes; longer text is split, as
    // PowerDNS and Technitium do for long SPF and DKIM values.
    if (b.length === 0) chunks.push(b);
    for (let i = 0; i < b.length; i += 255) chunks.push(b.subarray(i, i + 255));
  }
  if (chunks.length === 0) p.fail("no text");
  // Each string costs its length byte too; measured before encoding, which would throw.
  const size = chunks.reduce((n, c) => n + 1 + c.length, 0);
  if (size > MAX_RDATA) {
    p.fail(`text takes ${size} bytes on the wire, more than the ${MAX_RDATA} a record can hold`);
  }
  const wire = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    wire[o++] = c.length;
    wire.set(c, o);
    o += c.length;
  }
  return { value: chunks.map(quoteBytes).join(" "), wire };
}

function parseCaa(p: Parser): Rdata {
  const flags = p.int("flags", 255);
  const tag = p.next("tag").text.toLowerCase();
  if (!/^[a-z0-9]{1,15}$/.test(tag)) p.fail(`tag "${tag}" is not 1 to 15 letters or digits`);
  const bytes = p.bytes("value");
  if (bytes.some((b) => b < 0x20 || b > 0x7e)) p.fail("value must be printable ASCII");
  const text = new TextDecoder().decode(bytes);
  return {
    value: `${flags} ${tag} ${quoteBytes(bytes)}`,
    wire: wireOf("CAA", { flags, tag, value: text }),
  };
}

/** The SOA is derived from the zone's fields (see soa.ts), never stored as free data. */
function refuseSoa(): never {
  throw new UnprocessableError("The SOA record is managed through the zone's fields");
}

/** RFC 3597 §5, for types without a parser of their own: \# <length> <hex>. */
function parseUnknown(p: Parser): Rdata {
  if (p.next("\\#").text !== "\\#") p.fail('unknown types take the form "\\# <length> <hex>"');
  const len = p.int("length", 65535);
  const hex = len === 0 ? "" : p.hex("data", MAX_RDATA);
  if (hex.length / 2 !== len) {
    p.fail(`length ${len} does not match ${hex.length / 2} bytes of data`);
  }
  return { value: `\\# ${len}${hex ? " " + hex : ""}`, wire: hexBytes(hex) };
}

/** A type's parser, and the reader of its wire form (none for the SOA, which is refused). */
interface Codec {
  parse: RdataParser;
  text?: (r: WireReader) => string;
}

const aText = (r: WireReader) => r.take(4, "address").join(".");
const aaaaText = (r: WireReader) => ipv6Text(r.take(16, "address"));
const targetText = (r: WireReader) => r.name("target");
const mxText = (r: WireReader) => `${r.u16("preference")} ${r.name("exchange")}`;
const srvText = (r: WireReader) =>
  `${r.u16("priority")} ${r.u16("weight")} ${r.u16("port")} ${r.name("target")}`;

function txtText(r: WireReader): string {
  const strings: string[] = [];
  while (r.left) strings.push(quoteBytes(r.charString("string")));
  return strings.join(" ");
}

function caaText(r: WireReader): string {
  const flags = r.u8("flags");
  const tag = r.charString("tag");
  // Anything but letters and digits would read back as other tokens; the parser refuses it anyway.
  const tagText = String.fromCharCode(...tag);
  if (!/^[A-Za-z0-9]+$/.test(tagText)) r.fail("the tag is not letters and digits");
  return `${flags} ${tagText} ${quoteBytes(r.rest())}`;
}

const CODECS = new Map<string, Codec>([
  ["A", { parse: parseA, text: aText }],
  ["AAAA", { parse: parseAaaa, text: aaaaText }],
  ["CNAME", { parse: parseTarget, text: targetText }],
  ["DNAME", { parse: parseTarget, text: targetText }],
  ["NS", { parse: parseTarget, text: targetText }],
  ["PTR", { parse: parseTarget, text: targetText }],
  ["MX", { parse: parseMx, text: mxText }],
  ["SRV", { parse: parseSrv, text: srvText }],
  ["TXT", { parse: parseText, text: txtText }],
  ["SPF", { parse: parseText, text: txtText }],
  ["CAA", { parse: parseCaa, text: caaText }],
  ["DS", { parse: parseDs, text: dsText }],
  ["CDS", { parse: parseCds, text: dsText }],
  ["SSHFP", { parse: parseSshfp, text: sshfpText }],
  ["TLSA", { parse: parseTlsa, text: tlsaText }],
  ["SMIMEA", { parse: parseTlsa, text: tlsaText }],
  ["NAPTR", { parse: parseNaptr, text: naptrText }],
  ["HINFO", { parse: parseHinfo, text: hinfoText }],
  ["RP", { parse: parseRp, text: rpText }],
  ["AFSDB", { parse: parseAfsdb, text: numberAndNameText }],
  ["KX", { parse: parseKx, text: numberAndNameText }],
  ["URI", { parse: parseUri, text: uriText }],
  ["CDNSKEY", { parse: parseCdnskey, text: cdnskeyText }],
  ["OPENPGPKEY", { parse: parseOpenpgpkey, text: openpgpkeyText }],
  ["CERT", { parse: parseCert, text: certText }],
  ["LOC", { parse: parseLoc, text: locText }],
  ["SVCB", { parse: parseSvcb, text: svcbText }],
  ["HTTPS", { parse: parseSvcb, text: svcbText }],
  ["SOA", { parse: refuseSoa }],
]);

/**
 * RFC 3597 data of a type with a codec: read with the type's wire reader,
 * written in its presentation and parsed from that, so it meets the same
 * rules as data given in presentation and is stored the same way.
 */
function parseKnownGeneric(p: Parser, codec: Codec): Rdata {
  if (!codec.text) return codec.parse(p);
  const { wire } = parseUnknown(p);
  const r = new WireReader(wire, (why) => p.fail(`${why} (RFC 3597 data of type ${p.type})`));
  const text = codec.text(r);
  r.end();
  const q = new Parser(p.type, splitValue(text, p.field), null, p.field);
  const out = codec.parse(q);
  q.end();
  return out;
}

/** The data of `p`'s type read from its tokens: presentation, or RFC 3597's generic form. */
export function parseByType(p: Parser): Rdata {
  const codec = CODECS.get(p.type);
  if (!codec) return parseUnknown(p);
  const first = p.tokens[0];
  if (first && !first.quoted && first.text === "\\#") return parseKnownGeneric(p, codec);
  return codec.parse(p);
}
