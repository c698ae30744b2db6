/**
 * fast-check arbitraries of record data for the RDATA property tests: per
 * supported type, valid values in a presentation form as a user might write
 * them (any case, leading zeros, spaces in hex, escapes), with the canonical
 * form docs/dns.md promises and what dns-packet must decode from the wire,
 * both worked out here from the generated fields, never by the parser.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import {
  hexField,
  int,
  lower,
  nameField,
  ORIGIN,
  originArb,
  quoted,
  rfc5952,
  written,
} from "./rdata_fields.ts";
import {
  cdnskeyCase,
  cdsCase,
  certCase,
  hinfoCase,
  numberNameCase,
  openpgpCase,
  rpCase,
  uriCase,
} from "./rdata_arbitraries_more.ts";
import { locCase, svcbCase } from "./rdata_arbitraries_svcb.ts";

/** One generated value of one type. */
export interface RdataCase {
  type: string;
  /** Zone-file origin for relative names, or null (API: names absolute). */
  origin: string | null;
  input: string;
  canonical: string;
  /** The dns-packet codec that reads this type's RDATA. */
  codec: string;
  /** What that codec must decode from the wire. */
  decoded: unknown;
}

export { ORIGIN };
const enc = new TextEncoder();

const aCase = fc.array(int(0, 255), { minLength: 4, maxLength: 4 }).map((q) => ({
  type: "A",
  input: q.map((x) => x.text.slice(-3)).join("."),
  canonical: q.map((x) => x.n).join("."),
  codec: "A",
  decoded: q.map((x) => x.n).join("."),
}));

export { rfc5952 };

const aaaaCase = fc.tuple(
  fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 65535 })), {
    minLength: 8,
    maxLength: 8,
  }),
  fc.boolean(),
).chain(([g, full]) => {
  const text = full ? g.map((x) => x.toString(16).padStart(4, "0")).join(":") : rfc5952(g);
  return fc.mixedCase(fc.constant(text)).map((input) => ({
    type: "AAAA",
    input,
    canonical: rfc5952(g),
    codec: "AAAA",
    decoded: g,
  }));
});

const targetCase = fc.tuple(fc.constantFrom("CNAME", "DNAME", "NS", "PTR"), originArb).chain((
  [type, o],
) =>
  nameField(o).map((n) => ({
    type,
    origin: o,
    input: n.text,
    canonical: n.canonical,
    codec: type,
    decoded: n.wire,
  }))
);

const mxCase = originArb.chain((o) =>
  fc.tuple(int(0, 65535), nameField(o)).map(([p, n]) => ({
    type: "MX",
    origin: o,
    input: `${p.text} ${n.text}`,
    canonical: `${p.n} ${n.canonical}`,
    codec: "MX",
    decoded: { preference: p.n, exchange: n.wire },
  }))
);

const srvCase = originArb.chain((o) =>
  fc.tuple(int(0, 65535), int(0, 65535), int(0, 65535), nameField(o)).map(([p, w, port, n]) => ({
    type: "SRV",
    origin: o,
    input: `${p.text} ${w.text} ${port.text} ${n.text}`,
    canonical: `${p.n} ${w.n} ${port.n} ${n.canonical}`,
    codec: "SRV",
    decoded: { priority: p.n, weight: w.n, port: port.n, target: n.wire },
  }))
);

/** The 255-byte character-strings `bytes` is split into (one empty string for no bytes). */
function chunks(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length === 0) return [bytes];
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 255) out.push(bytes.subarray(i, i + 255));
  return out;
}

const anyBytes = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 250, maxLength: 600 }) },
);

/** TXT/SPF as quoted strings, each written any way. */
const txtQuoted = fc.array(anyBytes, { minLength: 1, maxLength: 3 }).chain((strs) =>
  fc.tuple(...strs.map(written)).map((ws) => ({
    input: ws.join(" "),
    strings: strs.flatMap(chunks),
  }))
);

/** TXT/SPF as plain text: one string, taken literally (backslashes included). */
const txtPlain = fc.string({ unit: "grapheme", maxLength: 300 })
  .filter((s) => !s.trimStart().startsWith('"'))
  .map((s) => ({ input: s, strings: chunks(enc.encode(s)) }));

/**
 * TXT/SPF as one quoted string of any characters, each written as itself or
 * quoted with a backslash (RFC 1035 §5.1: "\\X" is X without its special
 * meaning, whatever character X is): the bytes are the text's UTF-8 either way.
 */
const txtEscaped = fc.string({ unit: "grapheme", maxLength: 40 }).chain((text) => {
  const chars = [...text];
  return fc.array(fc.boolean(), { minLength: chars.length, maxLength: chars.length }).map((
    esc,
  ) => ({
    input: `"${
      chars.map((ch, i) =>
        (esc[i] && !/[0-9]/.test(ch)) || ch === '"' || ch === "\\" ? `\\${ch}` : ch
      )
        .join("")
    }"`,
    strings: chunks(enc.encode(text)),
  }));
});

const txtCase = fc.tuple(fc.constantFrom("TXT", "SPF"), fc.oneof(txtQuoted, txtPlain, txtEscaped))
  .map((
    [type, t],
  ) => ({
    type,
    input: t.input,
    canonical: t.strings.map(quoted).join(" "),
    codec: "TXT",
    decoded: t.strings.map((s) => Buffer.from(s)),
  }));

const printable = fc.uint8Array({ maxLength: 60 }).map((b) => b.map((x) => 0x20 + (x % 95)));

const caaCase = fc.tuple(
  int(0, 255),
  fc.mixedCase(
    fc.string({ unit: fc.constantFrom(...lower + "0123456789"), minLength: 1, maxLength: 15 }),
  ),
  printable.chain((v) => written(v).map((w) => ({ v, w }))),
).map(([f, tag, { v, w }]) => ({
  type: "CAA",
  input: `${f.text} ${tag} ${w}`,
  canonical: `${f.n} ${tag.toLowerCase()} ${quoted(v)}`,
  codec: "CAA",
  decoded: {
    flags: f.n,
    tag: tag.toLowerCase(),
    value: new TextDecoder().decode(v),
    issuerCritical: (f.n & 0x80) !== 0,
  },
}));

/** Digest lengths the registries fix, per DS digest type, SSHFP type and TLSA matching type. */
const DS_LEN: Record<number, number> = { 1: 20, 2: 32, 3: 32, 4: 48 };
const SSHFP_LEN: Record<number, number> = { 1: 20, 2: 32 };
const TLSA_LEN: Record<number, number> = { 1: 32, 2: 64 };

function digestOf(table: Record<number, number>, kind: number) {
  const n = table[kind];
  return hexField(n ? { min: n, max: n } : { min: 1, max: 80 });
}

/** A type number: mostly the registered ones, sometimes any in range. */
function kind(known: number[], min: number) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.integer({ min, max: 255 }) },
  );
}

const dsCase = fc.tuple(int(0, 65535), int(1, 255), kind([1, 2, 3, 4], 1)).chain(([tag, alg, dt]) =>
  digestOf(DS_LEN, dt).map((h) => ({
    type: "DS",
    input: `${tag.text} ${alg.text} ${dt} ${h.text}`,
    canonical: `${tag.n} ${alg.n} ${dt} ${h.canonical}`,
    codec: "DS",
    decoded: { keyTag: tag.n, algorithm: alg.n, digestType: dt, digest: Buffer.from(h.bytes) },
  }))
);

const sshfpCase = fc.tuple(int(1, 255), kind([1, 2], 1)).chain(([alg, ht]) =>
  digestOf(SSHFP_LEN, ht).map((h) => ({
    type: "SSHFP",
    input: `${alg.text} ${ht} ${h.text}`,
    canonical: `${alg.n} ${ht} ${h.canonical}`,
    // dns-packet reads only the fingerprint types it knows the length of.
    codec: SSHFP_LEN[ht] ? "SSHFP" : "UNKNOWN",
    decoded: SSHFP_LEN[ht]
      ? { algorithm: alg.n, hash: ht, fingerprint: h.canonical }
      : Buffer.from([alg.n, ht, ...h.bytes]),
  }))
);

const tlsaCase = fc.tuple(
  fc.constantFrom("TLSA", "SMIMEA"),
  int(0, 255),
  int(0, 255),
  kind([0, 1, 2], 0),
)
  .chain(([type, u, s, m]) =>
    digestOf(TLSA_LEN, m).map((h) => ({
      type,
      input: `${u.text} ${s.text} ${m} ${h.text}`,
      canonical: `${u.n} ${s.n} ${m} ${h.canonical}`,
      codec: "TLSA",
      decoded: { usage: u.n, selector: s.n, matchingType: m, certificate: Buffer.from(h.bytes) },
    }))
  );

/** RFC 3403 substitution expressions as BIND accepts them, built from parts. */
const regexpArb = fc.tuple(
  // None of these appears in the parts below, which would make it a fourth delimiter.
  fc.constantFrom("!", "/", "#", "%", "~"),
  fc.array(
    fc.oneof(
      fc.constantFrom(
        "a",
        "b",
        ".",
        "*",
        "+",
        "?",
        "^",
        "$",
        "-",
        "x{1,2}",
        "[a-z]",
        "[^q]",
        "[]x]",
      ),
      fc.constantFrom("\\.", "\\*", "\\("),
      fc.constantFrom("(.*)", "([0-9]+)", "(a|b)", "((x)y)"),
    ),
    { maxLength: 5 },
  ),
  fc.array(
    fc.oneof(fc.constantFrom("sip:", "x", "@", ".", "\\."), fc.integer({ min: 1, max: 9 })),
    {
      maxLength: 4,
    },
  ),
  fc.boolean(),
).map(([d, ere, repl, i]) => {
  const e = ere.join("");
  // A group is each "(" outside a bracket expression and not escaped; the parts above nest simply.
  const groups = ere.reduce(
    (n, part) => n + (part.startsWith("(") ? part.split("(").length - 1 : 0),
    0,
  );
  const r = repl.map((x) => (typeof x === "number" ? (x <= groups ? `\\${x}` : "") : x)).join("");
  return `${d}${e}${d}${r}${d}${i ? "i" : ""}`;
});

/** NAPTR: a regexp and a replacement other than the root never together (RFC 3403 §4.1). */
const naptrCase = originArb.chain((o) =>
  fc.tuple(
    int(0, 65535),
    int(0, 65535),
    fc.string({ unit: fc.constantFrom(..."SAUPsaup0123456789"), maxLength: 4 }),
    fc.uint8Array({ maxLength: 30 }).map((b) => b.map((x) => 0x20 + (x % 95))),
    fc.oneof(fc.constant(""), regexpArb),
    nameField(o),
  ).chain(([ord, pref, flags, services, regexp, name]) => {
    const re = enc.encode(regexp);
    const repl = regexp === "" ? name : { text: ".", canonical: ".", wire: "." };
    const strs = [enc.encode(flags), services, re];
    return fc.tuple(...strs.map(written)).map((ws) => ({
      type: "NAPTR",
      origin: o,
      input: `${ord.text} ${pref.text} ${ws.join(" ")} ${repl.text}`,
      canonical: `${ord.n} ${pref.n} ${strs.map(quoted).join(" ")} ${repl.canonical}`,
      codec: "NAPTR",
      decoded: {
        order: ord.n,
        preference: pref.n,
        flags,
        services: new TextDecoder().decode(services),
        regexp,
        replacement: repl.wire,
      },
    }));
  })
);

/** Codes with a type of their own here, refused, or read by a dns-packet codec of their own. */
const NOT_GENERIC = new Set([
  ...[0, 1, 2, 5, 6, 12, 15, 16, 28, 33, 35, 43, 44, 52, 53, 99, 257],
  ...[13, 17, 18, 29, 36, 37, 59, 60, 61, 64, 65, 256],
  ...[39, 41, 46, 47, 48, 50, 51],
  ...[10, 13, 17],
]);

/** RFC 3597 data of a type without a parser: \\# <length> <hex>. */
const unknownCase = fc.tuple(
  fc.oneof(fc.integer({ min: 1, max: 127 }), fc.integer({ min: 256, max: 65535 }))
    .filter((c) => !NOT_GENERIC.has(c)),
  hexField({ min: 0, max: 80 }),
  fc.nat(2),
).map(([code, h, zeros]) => ({
  type: `TYPE${code}`,
  input: `\\# ${"0".repeat(zeros)}${h.bytes.length}${h.bytes.length ? " " + h.text : ""}`,
  canonical: `\\# ${h.bytes.length}${h.bytes.length ? " " + h.canonical : ""}`,
  codec: "UNKNOWN",
  decoded: Buffer.from(h.bytes),
}));

const noOrigin = (a: fc.Arbitrary<Omit<RdataCase, "origin">>) =>
  a.map((c): RdataCase => ({ origin: null, ...c }));

/** A valid value of one supported type (SOA aside: it is managed through the zone's fields). */
export const rdataCase: fc.Arbitrary<RdataCase> = fc.oneof(
  noOrigin(aCase),
  noOrigin(aaaaCase),
  targetCase,
  mxCase,
  srvCase,
  noOrigin(txtCase),
  noOrigin(caaCase),
  noOrigin(dsCase),
  noOrigin(sshfpCase),
  noOrigin(tlsaCase),
  naptrCase,
  noOrigin(unknownCase),
  noOrigin(hinfoCase),
  rpCase,
  numberNameCase,
  noOrigin(uriCase),
  noOrigin(certCase),
  noOrigin(openpgpCase),
  noOrigin(cdsCase),
  noOrigin(cdnskeyCase),
  noOrigin(locCase),
  svcbCase,
);
