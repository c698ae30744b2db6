/**
 * fast-check arbitraries of the record types added after RFC 1035's: HINFO,
 * RP, AFSDB, KX, URI, CERT, OPENPGPKEY, CDS, CDNSKEY, LOC, SVCB and HTTPS,
 * each with its canonical form and its wire bytes worked out here from the
 * generated fields. dns-packet has codecs for HINFO, RP, DS (CDS) and DNSKEY
 * (CDNSKEY) and decodes those; for the others it has none, so `decoded` is
 * the RDATA as RFC 1876, 2230, 4398, 7553, 7929, 1183 and 9460 lay it out,
 * which dns-packet hands back raw.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { hexField, int, nameField, originArb, quoted, written } from "./rdata_fields.ts";

const enc = new TextEncoder();
const u16 = (n: number) => [n >> 8, n & 255];
const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");
/** Wire form of a plain absolute name as the fields give it ("." or "a.b"). */
const wireName = (n: string) =>
  n === "." ? [0] : [...n.split(".").flatMap((l) => [l.length, ...enc.encode(l)]), 0];
const printable = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => b.map((x) => 0x20 + (x % 95)));
const latin1 = (b: Uint8Array) => String.fromCharCode(...b);

const hinfoCase = fc.tuple(printable(0, 30), printable(0, 30)).chain(([cpu, os]) =>
  fc.tuple(written(cpu), written(os)).map(([wc, wo]) => ({
    type: "HINFO",
    input: `${wc} ${wo}`,
    canonical: `${quoted(cpu)} ${quoted(os)}`,
    codec: "HINFO",
    decoded: { cpu: latin1(cpu), os: latin1(os) },
  }))
);

const rpCase = originArb.chain((o) =>
  fc.tuple(nameField(o), nameField(o)).map(([m, t]) => ({
    type: "RP",
    origin: o,
    input: `${m.text} ${t.text}`,
    canonical: `${m.canonical} ${t.canonical}`,
    codec: "RP",
    decoded: { mbox: m.wire, txt: t.wire },
  }))
);

const numberNameCase = fc.tuple(fc.constantFrom("AFSDB", "KX"), originArb).chain(([type, o]) =>
  fc.tuple(int(0, 65535), nameField(o)).map(([n, name]) => ({
    type,
    origin: o,
    input: `${n.text} ${name.text}`,
    canonical: `${n.n} ${name.canonical}`,
    codec: "UNKNOWN",
    decoded: Buffer.from([...u16(n.n), ...wireName(name.wire)]),
  }))
);

const uriCase = fc.tuple(
  int(0, 65535),
  int(0, 65535),
  fc.constantFrom("https:", "mailto:", "ftp:", "urn:", "x-y.z+1:"),
  printable(0, 300).map((b) => b.map((x) => (x === 0x20 ? 0x2f : x))),
).chain(([p, w, scheme, rest]) => {
  const target = new Uint8Array([...enc.encode(scheme), ...rest]);
  return written(target).map((wt) => ({
    type: "URI",
    input: `${p.text} ${w.text} ${wt}`,
    canonical: `${p.n} ${w.n} ${quoted(target)}`,
    codec: "UNKNOWN",
    decoded: Buffer.from([...u16(p.n), ...u16(w.n), ...target]),
  }));
});

/** Base64 of `bytes`, maybe split by a space at a multiple of four characters. */
const base64Field = (min: number, max: number) =>
  fc.tuple(fc.uint8Array({ minLength: min, maxLength: max }), fc.nat()).map(([bytes, cut]) => {
    const text = b64(bytes);
    const at = 4 * (cut % (text.length / 4 + 1));
    const spaced = at > 0 && at < text.length ? `${text.slice(0, at)} ${text.slice(at)}` : text;
    return { bytes, text: spaced, canonical: text };
  });

const CERT_TYPES: [string, number][] = [["PKIX", 1], ["PGP", 3], ["URI", 253], ["OID", 254]];
const ALGS: [string, number][] = [["RSASHA256", 8], ["ECDSAP256SHA256", 13], ["ED25519", 15]];
/** A number written as itself or as its mnemonic. */
const numbered = (table: [string, number][], other: fc.Arbitrary<number>) =>
  fc.oneof(
    fc.constantFrom(...table).map(([m, n]) => ({ text: m.toLowerCase(), n })),
    other.map((n) => ({ text: String(n), n })),
  );

const certCase = fc.tuple(
  numbered(CERT_TYPES, fc.integer({ min: 1, max: 65534 }).filter((n) => n !== 255)),
  int(0, 65535),
  numbered(ALGS, fc.integer({ min: 0, max: 255 })),
  base64Field(1, 60),
).map(([t, tag, alg, c]) => ({
  type: "CERT",
  input: `${t.text} ${tag.text} ${alg.text} ${c.text}`,
  canonical: `${t.n} ${tag.n} ${alg.n} ${c.canonical}`,
  codec: "UNKNOWN",
  decoded: Buffer.from([...u16(t.n), ...u16(tag.n), alg.n, ...c.bytes]),
}));

const openpgpCase = base64Field(1, 120).map((k) => ({
  type: "OPENPGPKEY",
  input: k.text,
  canonical: k.canonical,
  codec: "UNKNOWN",
  decoded: Buffer.from(k.bytes),
}));

const cdsDelete = {
  type: "CDS",
  input: "0 0 0 00",
  canonical: "0 0 0 00",
  codec: "DS",
  decoded: { keyTag: 0, algorithm: 0, digestType: 0, digest: Buffer.from([0]) },
};
const cdsCase = fc.oneof(
  fc.constant(cdsDelete),
  fc.tuple(int(0, 65535), int(1, 255), fc.constantFrom(1, 2, 4)).chain(([tag, alg, dt]) =>
    hexField({ min: dt === 1 ? 20 : dt === 2 ? 32 : 48, max: dt === 1 ? 20 : dt === 2 ? 32 : 48 })
      .map((h) => ({
        type: "CDS",
        input: `${tag.text} ${alg.text} ${dt} ${h.text}`,
        canonical: `${tag.n} ${alg.n} ${dt} ${h.canonical}`,
        codec: "DS",
        decoded: { keyTag: tag.n, algorithm: alg.n, digestType: dt, digest: Buffer.from(h.bytes) },
      }))
  ),
);

/** Key lengths fixed by the algorithm (RFC 6605, 8080); others any length. */
const KEY_LEN: Record<number, number> = { 13: 64, 14: 96, 15: 32, 16: 57 };
const cdnskeyCase = fc.oneof(
  fc.constant({
    type: "CDNSKEY",
    input: "0 3 0 AA==",
    canonical: "0 3 0 AA==",
    codec: "DNSKEY",
    decoded: { flags: 0, algorithm: 0, key: Buffer.from([0]) },
  }),
  fc.tuple(
    fc.constantFrom(256, 257, 384, 385),
    fc.oneof(fc.constantFrom(8, 13, 14, 15, 16), fc.integer({ min: 1, max: 255 })),
  ).chain(([flags, alg]) =>
    base64Field(KEY_LEN[alg] ?? 1, KEY_LEN[alg] ?? 100).map((k) => ({
      type: "CDNSKEY",
      input: `${flags} 3 ${alg} ${k.text}`,
      canonical: `${flags} 3 ${alg} ${k.canonical}`,
      codec: "DNSKEY",
      decoded: { flags, algorithm: alg, key: Buffer.from(k.bytes) },
    }))
  ),
);

export { hinfoCase, numberNameCase, rpCase, uriCase };
export { cdnskeyCase, cdsCase, certCase, openpgpCase };
