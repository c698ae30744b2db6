/**
 * One parser per record type: RDATA tokens → canonical presentation and wire
 * bytes (see rdata.ts). Wire bytes come from dns-packet's per-type encoders
 * where it has one; types without a parser take RFC 3597's generic form.
 */
import { Buffer } from "node:buffer";
import { UnprocessableError, ValidationError } from "../errors.ts";
import { fqdn, normalizeName } from "./names.ts";
import { dnsPacket } from "./packet.ts";
import type { Origin, Rdata } from "./rdata.ts";
import { quoteBytes, type Token, unescapeBytes } from "./tokens.ts";

function wireOf(type: string, data: unknown): Uint8Array {
  // The per-type encoders write a two-byte RDLENGTH first.
  return new Uint8Array(dnsPacket.record(type).encode(data).subarray(2));
}

/** Reads one record's data tokens; `fail` names the type and the field. */
export class Parser {
  i = 0;
  constructor(
    readonly type: string,
    readonly tokens: Token[],
    readonly origin: Origin,
    readonly field: string,
  ) {}

  fail(why: string): never {
    throw new ValidationError(`Invalid ${this.type} value: ${why}`, this.field);
  }
  next(what: string): Token {
    const t = this.tokens[this.i++];
    if (!t) this.fail(`missing ${what}`);
    return t;
  }
  get rest(): Token[] {
    const r = this.tokens.slice(this.i);
    this.i = this.tokens.length;
    return r;
  }
  end(): void {
    if (this.i < this.tokens.length) {
      this.fail(`unexpected "${this.tokens[this.i].text}"`);
    }
  }
  int(what: string, max: number): number {
    const t = this.next(what).text;
    if (!/^[0-9]{1,10}$/.test(t) || Number(t) > max) {
      this.fail(`${what} "${t}" is not an integer from 0 to ${max}`);
    }
    return Number(t);
  }
  /** A domain name; returns it without trailing dot ("" for the root). */
  name(what: string): string {
    const t = this.next(what);
    const text = t.text;
    if (text === ".") return "";
    if (text === "@") {
      if (this.origin === null) this.fail(`${what} "@" is only allowed in zone files`);
      return this.origin;
    }
    if (text.includes("\\")) {
      this.fail(`${what} "${text}" contains an escape, which is not supported`);
    }
    let abs = text;
    if (!text.endsWith(".") && this.origin !== null) abs = `${text}.${this.origin}`;
    try {
      return normalizeName(abs, this.field);
    } catch {
      return this.fail(`${what} "${text}" is not a valid domain name`);
    }
  }
  hex(what: string): string {
    const hex = this.rest.map((t) => t.text).join("");
    if (hex === "" || !/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) {
      this.fail(`${what} is not hexadecimal`);
    }
    return hex.toUpperCase();
  }
  bytes(what: string): Uint8Array {
    const t = this.next(what);
    const b = unescapeBytes(t.text, this.field);
    if (b.length > 255) this.fail(`${what} is longer than 255 bytes`);
    return b;
  }
}

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

/** CNAME, NS, PTR: one target name. */
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
  const wire = wireOf("TXT", chunks.map((c) => Buffer.from(c)));
  if (wire.length > 65535) p.fail("text is longer than 65535 bytes");
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

function parseDs(p: Parser): Rdata {
  const keyTag = p.int("key tag", 65535);
  const algorithm = p.int("algorithm", 255);
  const digestType = p.int("digest type", 255);
  const digest = p.hex("digest");
  return {
    value: `${keyTag} ${algorithm} ${digestType} ${digest}`,
    wire: wireOf("DS", { keyTag, algorithm, digestType, digest: Buffer.from(digest, "hex") }),
  };
}

function parseSshfp(p: Parser): Rdata {
  const algorithm = p.int("algorithm", 255);
  const hash = p.int("fingerprint type", 255);
  const fp = p.hex("fingerprint");
  const wire = new Uint8Array(2 + fp.length / 2);
  wire[0] = algorithm;
  wire[1] = hash;
  wire.set(Buffer.from(fp, "hex"), 2);
  return { value: `${algorithm} ${hash} ${fp}`, wire };
}

function parseTlsa(p: Parser): Rdata {
  const usage = p.int("usage", 255);
  const selector = p.int("selector", 255);
  const matchingType = p.int("matching type", 255);
  const cert = p.hex("certificate data");
  return {
    value: `${usage} ${selector} ${matchingType} ${cert}`,
    wire: wireOf("TLSA", {
      usage,
      selector,
      matchingType,
      certificate: Buffer.from(cert, "hex"),
    }),
  };
}

function parseNaptr(p: Parser): Rdata {
  const order = p.int("order", 65535);
  const preference = p.int("preference", 65535);
  const strs = [p.bytes("flags"), p.bytes("services"), p.bytes("regexp")];
  const target = p.name("replacement");
  const head = new Uint8Array([order >> 8, order & 255, preference >> 8, preference & 255]);
  const parts: Uint8Array[] = [head];
  for (const s of strs) parts.push(new Uint8Array([s.length]), s);
  parts.push(wireOf("NS", fqdn(target)));
  return {
    value: `${order} ${preference} ${strs.map(quoteBytes).join(" ")} ${fqdn(target)}`,
    wire: concat(parts),
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
  const hex = len === 0 ? "" : p.hex("data");
  if (hex.length / 2 !== len) {
    p.fail(`length ${len} does not match ${hex.length / 2} bytes of data`);
  }
  return {
    value: `\\# ${len}${hex ? " " + hex : ""}`,
    wire: new Uint8Array(Buffer.from(hex, "hex")),
  };
}

const PARSERS = new Map<string, RdataParser>([
  ["A", parseA],
  ["AAAA", parseAaaa],
  ["CNAME", parseTarget],
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
  ["NAPTR", parseNaptr],
  ["SOA", refuseSoa],
]);

/** The data of `p`'s type read from its tokens. */
export function parseByType(p: Parser): Rdata {
  return (PARSERS.get(p.type) ?? parseUnknown)(p);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
