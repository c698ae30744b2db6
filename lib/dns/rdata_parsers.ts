/**
 * One parser per record type: RDATA tokens → canonical presentation and wire
 * bytes (see rdata.ts). Every field is checked against its RFC and bounded by
 * what the wire format carries, so that what is stored can always be served
 * and read by BIND, Knot and dnspython; types without a parser take RFC
 * 3597's generic form. Digest types are in rdata_digests.ts, NAPTR in
 * rdata_naptr.ts.
 */
import { UnprocessableError } from "../errors.ts";
import { fqdn } from "./names.ts";
import type { Rdata } from "./rdata.ts";
import { parseDs, parseSshfp, parseTlsa } from "./rdata_digests.ts";
import { parseNaptr } from "./rdata_naptr.ts";
import { hexBytes, MAX_RDATA, Parser, wireOf } from "./rdata_parser.ts";
import { quoteBytes, unescapeBytes } from "./tokens.ts";

export { Parser } from "./rdata_parser.ts";

type RdataParser = (p: Parser) => Rdata;

function parseA(p: Parser): Rdata {
  const t = p.next("address").text;
  const m = /^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$/.exec(t);
  const parts = m?.slice(1).map(Number);
  if (!parts || parts.some((n) => n > 255)) p.fail(`"${t}" is not an IPv4 address`);
  const value = parts.join(".");
  return { value, wire: new Uint8Array(parts) };
}

function parseAaaa(p: Parser): Rdata {
  const t = p.next("address").text;
  let value = "";
  try {
    if (!t.includes(":") || /[^0-9a-fA-F:.]/.test(t)) throw new Error();
    value = new URL(`http://[${t}]/`).hostname.slice(1, -1);
  } catch {
    p.fail(`"${t}" is not an IPv6 address`);
  }
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

const PARSERS = new Map<string, RdataParser>([
  ["A", parseA],
  ["AAAA", parseAaaa],
  ["CNAME", parseTarget],
  ["DNAME", parseTarget],
  ["NS", parseTarget],
  ["PTR", parseTarget],
  ["MX", parseMx],
  ["SRV", parseSrv],
  ["TXT", parseText],
  ["SPF", parseText],
  ["CAA", parseCaa],
  ["DS", parseDs],
  ["SSHFP", parseSshfp],
  ["TLSA", parseTlsa],
  ["SMIMEA", parseTlsa],
  ["NAPTR", parseNaptr],
  ["SOA", refuseSoa],
]);

/** The data of `p`'s type read from its tokens. */
export function parseByType(p: Parser): Rdata {
  return (PARSERS.get(p.type) ?? parseUnknown)(p);
}
