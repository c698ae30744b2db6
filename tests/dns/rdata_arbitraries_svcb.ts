/**
 * fast-check arbitraries of LOC (RFC 1876) and SVCB/HTTPS (RFC 9460) values:
 * generated fields, the text a user may write (parameters in any order, the
 * optional parts of LOC left out), the canonical form docs/dns.md gives (what
 * BIND's dig prints back) and the RDATA as the RFCs lay it out, all worked
 * out here. dns-packet has no codec for either, so it hands the RDATA back raw.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { nameField, originArb, quoted, rfc5952, written } from "./rdata_fields.ts";

const enc = new TextEncoder();
const u16 = (n: number) => [n >> 8, n & 255];
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const pad = (n: number, w: number) => String(n).padStart(w, "0");
const wireName = (n: string) =>
  n === "." ? [0] : [...n.split(".").flatMap((l) => [l.length, ...enc.encode(l)]), 0];

/** An angle in milliarcseconds up to `max` degrees, with its hemisphere letter. */
function angle(max: number, hemis: string) {
  return fc.tuple(fc.integer({ min: 0, max: max * 3_600_000 }), fc.boolean(), fc.boolean()).map(
    ([ms, second, short]) => {
      const d = Math.floor(ms / 3_600_000);
      const m = Math.floor((ms % 3_600_000) / 60_000);
      const s = ms % 60_000;
      const hemi = ms === 0 ? hemis[0] : hemis[second ? 1 : 0];
      const sec = `${Math.floor(s / 1000)}.${pad(s % 1000, 3)}`;
      // Seconds may be left out when zero, and the minutes with them.
      const input = short && s === 0 ? (m === 0 ? `${d}` : `${d} ${m}`) : `${d} ${m} ${sec}`;
      const wire = 2 ** 31 + (hemi === hemis[1] ? -ms : ms);
      return { input: `${input} ${hemi}`, canonical: `${d} ${m} ${sec} ${hemi}`, wire };
    },
  );
}

/** A size or precision: one digit times a power of ten centimetres, in metres. */
const size = fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.boolean())
  .map(([man, e, m]) => {
    const exp = man === 0 ? 0 : e;
    const text = exp >= 2 ? `${man * 10 ** (exp - 2)}` : `0.${pad(man * 10 ** exp, 2)}`;
    return { input: text + (m ? "m" : ""), canonical: `${text}m`, byte: (man << 4) | exp };
  });

const DEFAULT_SIZES = [
  { canonical: "1m", byte: 0x12 },
  { canonical: "10000m", byte: 0x16 },
  { canonical: "10m", byte: 0x13 },
];

export const locCase = fc.tuple(
  angle(90, "NS"),
  angle(180, "EW"),
  fc.integer({ min: -10_000_000, max: 0xffffffff - 10_000_000 }),
  fc.array(size, { maxLength: 3 }),
).map(([lat, lon, alt, sizes]) => {
  const altText = `${alt < 0 ? "-" : ""}${Math.floor(Math.abs(alt) / 100)}.${
    pad(Math.abs(alt) % 100, 2)
  }m`;
  const all = DEFAULT_SIZES.map((d, i) => sizes[i] ?? d);
  return {
    type: "LOC",
    input: [lat.input, lon.input, altText, ...sizes.map((s) => s.input)].join(" "),
    canonical: [lat.canonical, lon.canonical, altText, ...all.map((s) => s.canonical)].join(" "),
    codec: "UNKNOWN",
    decoded: Buffer.from([
      0,
      ...all.map((s) => s.byte),
      ...u32(lat.wire),
      ...u32(lon.wire),
      ...u32(alt + 10_000_000),
    ]),
  };
});

/** One SvcParam: its key, how it may be written, its canonical text and its wire value. */
interface Param {
  key: number;
  input: string;
  canonical: string;
  value: number[];
}

const bytesOf = (s: string) => [...s].map((c) => c.charCodeAt(0));
/** An alpn id or generic value: printable ASCII, commas and backslashes among it. */
const text = (min: number) =>
  fc.string({ unit: fc.constantFrom(...'h2.3-x,\\" az'), minLength: min, maxLength: 8 });

const alpn = fc.array(text(1), { minLength: 1, maxLength: 3 }).chain((ids) => {
  // Appendix A.1: a comma or backslash inside an item is escaped, then the list is a char-string.
  const list = new Uint8Array(bytesOf(ids.map((id) => id.replace(/[\\,]/g, "\\$&")).join(",")));
  return written(list).map((w): Param => ({
    key: 1,
    input: `alpn=${w}`,
    canonical: `alpn=${quoted(list)}`,
    value: ids.flatMap((id) => [id.length, ...bytesOf(id)]),
  }));
});

const port = fc.integer({ min: 0, max: 65535 }).map((n): Param => ({
  key: 3,
  input: `port=${n}`,
  canonical: `port=${n}`,
  value: u16(n),
}));

const ipv4 = fc.array(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), {
  minLength: 1,
  maxLength: 3,
}).map((as): Param => {
  const t = `ipv4hint=${as.map((a) => a.join(".")).join(",")}`;
  return { key: 4, input: t, canonical: t, value: as.flat() };
});

const ipv6 = fc.array(
  fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 8, maxLength: 8 }),
  { minLength: 1, maxLength: 2 },
).map((gs): Param => ({
  key: 6,
  input: `ipv6hint=${gs.map((g) => g.map((x) => x.toString(16)).join(":")).join(",")}`,
  canonical: `ipv6hint=${gs.map(rfc5952).join(",")}`,
  value: gs.flatMap((g) => g.flatMap(u16)),
}));

const ech = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b): Param => {
  const t = `ech=${Buffer.from(b).toString("base64")}`;
  return { key: 5, input: t, canonical: t, value: [...b] };
});

const generic = fc.tuple(fc.integer({ min: 9, max: 65534 }), text(0)).chain(([key, v]) => {
  const bytes = new Uint8Array(bytesOf(v));
  return written(bytes).map((w): Param => ({
    key,
    input: bytes.length ? `key${key}=${w}` : `key${key}`,
    canonical: bytes.length ? `key${key}=${quoted(bytes)}` : `key${key}`,
    value: [...bytes],
  }));
});

const NAMES = ["mandatory", "alpn", "no-default-alpn", "port", "ipv4hint", "ech", "ipv6hint"];
const keyName = (k: number) => NAMES[k] ?? `key${k}`;

/** ServiceMode parameters: distinct keys, no-default-alpn only with alpn, maybe a mandatory list. */
const params = fc.tuple(
  fc.option(alpn),
  fc.boolean(),
  fc.option(port),
  fc.option(ipv4),
  fc.option(ech),
  fc.option(ipv6),
  fc.uniqueArray(generic, { selector: (p) => p.key, maxLength: 2 }),
).chain(([a, noDefault, ...rest]) => {
  const ps = [a, ...rest.slice(0, 4), ...rest[4]].filter((p): p is Param => p !== null);
  if (a && noDefault) {
    ps.push({ key: 2, input: "no-default-alpn", canonical: "no-default-alpn", value: [] });
  }
  const all = { minLength: ps.length, maxLength: ps.length };
  return fc.tuple(fc.shuffledSubarray(ps.map((p) => p.key)), fc.shuffledSubarray(ps, all)).map(
    ([listed, order]) => {
      if (listed.length === 0) return { sorted: sortByKey(ps), order };
      const sortedKeys = [...listed].sort((x, y) => x - y);
      const m: Param = {
        key: 0,
        input: `mandatory=${listed.map(keyName).join(",")}`,
        canonical: `mandatory=${sortedKeys.map(keyName).join(",")}`,
        value: sortedKeys.flatMap(u16),
      };
      return { sorted: sortByKey([...ps, m]), order: [m, ...order] };
    },
  );
});

const sortByKey = (ps: Param[]) => [...ps].sort((x, y) => x.key - y.key);

export const svcbCase = fc.tuple(fc.constantFrom("SVCB", "HTTPS"), originArb).chain((
  [type, o],
) =>
  fc.tuple(fc.integer({ min: 0, max: 65535 }), nameField(o), params).map((
    [priority, target, { sorted, order }],
  ) => {
    // §2.4.2: AliasMode carries no parameters.
    const ps = priority === 0 ? [] : sorted;
    const given = priority === 0 ? [] : order.length ? order : sorted;
    return {
      type,
      origin: o,
      input: [String(priority), target.text, ...given.map((p) => p.input)].join(" "),
      canonical: [String(priority), target.canonical, ...ps.map((p) => p.canonical)].join(" "),
      codec: "UNKNOWN",
      decoded: Buffer.from([
        ...u16(priority),
        ...wireName(target.wire),
        ...ps.flatMap((p) => [...u16(p.key), ...u16(p.value.length), ...p.value]),
      ]),
    };
  })
);
