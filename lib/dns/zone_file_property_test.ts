/**
 * Properties of the zone-file parser and writer (zone_file.ts, tokens.ts):
 * any set of valid records written by serializeZoneFile reads back as the
 * same records and SOA, and arbitrary text (or a written zone with a few
 * characters changed) only ever fails with a domain error naming its line.
 */
import fc from "fast-check";
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { check, propertySeed } from "../../tests/dns/property.ts";
import { rdataCase } from "../../tests/dns/rdata_arbitraries.ts";
import { hostName, lower } from "../../tests/dns/rdata_fields.ts";
import { DomainError } from "../errors.ts";
import { parseRdata } from "./rdata.ts";
import { MAX_TTL, soaValue } from "./soa.ts";
import { parseZoneFile, serializeZoneFile } from "./zone_file.ts";

const runs = propertySeed("zone_file_property_test");

const ttl = fc.oneof(fc.integer({ min: 0, max: 86400 }), fc.integer({ min: 0, max: MAX_TTL }));
const ownerLabel = fc.string({
  unit: fc.constantFrom(...lower + "0123456789-_"),
  minLength: 1,
  maxLength: 10,
}).filter((l) => !l.startsWith("xn--"));

/** An owner in `zone`: the apex, or up to three labels below it, maybe under a wildcard. */
function owner(zone: string) {
  return fc.tuple(fc.array(ownerLabel, { maxLength: 3 }), fc.boolean()).map(([ls, wild]) =>
    [...(wild ? ["*"] : []), ...ls, zone].join(".")
  ).filter((n) => n.length <= 253);
}

/** A zone, its SOA and records as the store holds them (canonical values). */
const isMailDomain = (d: string) =>
  d.split(".").every((l) => !l.startsWith("-") && !l.endsWith("-"));

const zoneSource = hostName(false, 120).chain((name) =>
  fc.record({
    name: fc.constant(name),
    default_ttl: fc.integer({ min: 0, max: 604800 }),
    soaTtl: ttl,
    soa: fc.record({
      primary: hostName(false),
      // A mail domain is a host name: no label starts or ends with a hyphen (normalizeEmail).
      admin_email: fc.tuple(ownerLabel, hostName(false, 150).filter(isMailDomain))
        .map(([l, d]) => `${l}@${d}`),
      serial: fc.integer({ min: 0, max: 4294967295 }),
      refresh: fc.integer({ min: 60, max: 2419200 }),
      retry: fc.integer({ min: 60, max: 2419200 }),
      expire: fc.integer({ min: 3600, max: 31536000 }),
      minimum: fc.integer({ min: 0, max: 86400 }),
    }),
    records: fc.array(
      fc.record({ name: owner(name), ttl, data: rdataCase }).map((r) => ({
        name: r.name,
        type: r.data.type,
        ttl: r.ttl,
        value: r.data.canonical,
      })),
      { maxLength: 12 },
    ),
  })
);

type ZoneSourceValue = typeof zoneSource extends fc.Arbitrary<infer T> ? T : never;

const byKey = (rs: { name: string; type: string; ttl: number; value: string }[]) =>
  rs.map((r) => JSON.stringify([r.name, r.type, r.ttl, r.value])).sort();

/** The file `serializeZoneFile` writes for a generated zone. */
function written(z: ZoneSourceValue): string {
  return serializeZoneFile({
    name: z.name,
    default_ttl: z.default_ttl,
    soa: { ttl: z.soaTtl, value: soaValue({ ...z.soa, name: z.name, default_ttl: 0 }) },
    records: z.records,
  });
}

/**
 * The same file laid out another way RFC 1035 §5.1 allows: CRLF line ends,
 * spaces for tabs, a comment after each record, or its data in parentheses
 * over two lines.
 */
const layout = fc.record({
  crlf: fc.boolean(),
  spaces: fc.boolean(),
  comments: fc.boolean(),
  parens: fc.boolean(),
});

function relaid(
  text: string,
  l: { crlf: boolean; spaces: boolean; comments: boolean; parens: boolean },
) {
  const lines = text.split("\n").map((line) => {
    if (line === "" || line.startsWith(";") || line.startsWith("$")) return line;
    let out = line;
    if (l.parens) {
      const [owner, ttl, klass, ...rest] = out.split("\t");
      out = `${owner}\t${ttl}\t${klass}\t(\n\t${rest.join("\t")}\n\t)`;
    }
    if (l.spaces) out = out.replace(/\t/g, "   ");
    if (l.comments) out += ' ; (comment "with" quotes)';
    return out;
  });
  return lines.join(l.crlf ? "\r\n" : "\n");
}

Deno.test("serializeZoneFile() → parseZoneFile() gives back the same SOA and records, however laid out", () => {
  check(
    fc.property(zoneSource, layout, (z, l) => {
      const parsed = parseZoneFile(relaid(written(z), l), z.name);
      assertEquals(parsed.soa, { ...z.soa, ttl: z.soaTtl });
      assertEquals(byKey(parsed.records), byKey(z.records));
    }),
    runs(600),
  );
});

/** Characters of zone files, where the lexer and parser have edges. */
const zoneChar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(..."abcxyz0123456789.") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(" ", "\t", "\n", "\n", '"', "\\", "(", ")", ";", "@", "$", "*"),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("$ORIGIN ", "$TTL ", "IN ", "SOA ", "A ", "TXT ", "MX "),
  },
  { weight: 1, arbitrary: fc.constantFrom("\r", "\0", "é", "😀", "\\#", "1h", "CH ", "TYPE65 ") },
);

/** Arbitrary text, and written zones with a few characters changed. */
const zoneText = fc.oneof(
  fc.string({ unit: zoneChar, maxLength: 200 }),
  fc.tuple(
    zoneSource,
    fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.string({ unit: zoneChar, maxLength: 3 })), {
      minLength: 1,
      maxLength: 4,
    }),
  ).map(([z, edits]) => {
    let s = written(z);
    for (const [at, insert, text] of edits) {
      const i = at % (s.length + 1);
      s = s.slice(0, i) + text + s.slice(insert ? i : i + 1);
    }
    return { zone: z.name, text: s };
  }),
);

Deno.test("parseZoneFile(): arbitrary text fails only with a domain error naming a line of it", () => {
  check(
    fc.property(zoneText, (t) => {
      const [zone, text] = typeof t === "string" ? ["example.com", t] : [t.zone, t.text];
      let parsed;
      try {
        parsed = parseZoneFile(text, zone);
      } catch (err) {
        assert(err instanceof DomainError, `threw ${err}`);
        assertMatch(err.message, /^Line [0-9]+: /);
        const line = Number(err.message.split(/^Line ([0-9]+): /)[1]);
        assert(line >= 1 && line <= text.split("\n").length, `line ${line} of ${text}`);
        return;
      }
      // What it accepts is in the zone and canonical.
      for (const r of parsed.records) {
        assert(r.name === zone || r.name.endsWith(`.${zone}`));
        assertEquals(parseRdata(r.type, r.value, null).value, r.value);
      }
    }),
    runs(2500),
  );
});
