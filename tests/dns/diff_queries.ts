/**
 * The differential suite's queries, from a seed: names of the zones (owners,
 * empty non-terminals, wildcard matches, names that do not exist, names
 * outside every zone) in mixed case, every type of the zones and many
 * others, EDNS absent or 512/1232/4096/65535 with and without DO (and now
 * and then version 1), classes IN/CH/ANY/HS and others, opcodes 0–15, and
 * malformed messages made by the fuzz tests' mutations. Messages are encoded
 * here by hand, so that any type, class, opcode or EDNS shape can be sent.
 */
import { mutate } from "./fuzz_mutations.ts";

/** Type mnemonics the generator and the report know. */
export const TYPE_CODES: Record<string, number> = {
  A: 1,
  NS: 2,
  MD: 3,
  CNAME: 5,
  SOA: 6,
  NULL: 10,
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
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  CSYNC: 62,
  ZONEMD: 63,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  TKEY: 249,
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  MAILB: 253,
  MAILA: 254,
  ANY: 255,
  URI: 256,
  CAA: 257,
  TYPE0: 0,
  TYPE65280: 65280,
  TYPE65281: 65281,
  TYPE65535: 65535,
};

export const CLASS_CODES: Record<string, number> = { IN: 1, CH: 3, HS: 4, NONE: 254, ANY: 255 };

export interface DiffQuery {
  bytes: Uint8Array;
  /** One line for the report: the question and header shape, or the bytes of a malformed message. */
  desc: string;
  qname: string;
  qtype: string;
  qclass: string;
  opcode: number;
  edns: { size: number; do: boolean; version: number } | null;
  malformed: boolean;
  /** An IXFR query with the client's SOA in the authority section. */
  ixfrSoa: boolean;
}

export interface QueryUniverse {
  /** Zone apexes, lowercase. */
  zones: string[];
  /** Owner names of the zones (wildcards included), lowercase. */
  names: string[];
  /** Types the zones hold. */
  types: string[];
}

type Rng = (n: number) => number;

const pick = <T>(r: Rng, list: readonly T[]): T => list[r(list.length)];

const OUTSIDE = ["example.net", "www.example.net", "test", ".", "xdiff.test", "diff.test.example"];

function label(r: Rng): string {
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789-";
  const n = 1 + r(10);
  let s = "";
  for (let i = 0; i < n; i++) s += chars[r(i === 0 ? 26 : chars.length)];
  return s;
}

/** Every name of the universe and its ancestors up to its zone (empty non-terminals included). */
export function allNames(u: QueryUniverse): string[] {
  const out = new Set<string>();
  for (const n of u.names) {
    const zone = u.zones.filter((z) =>
      n === z || n.endsWith(`.${z}`)
    ).sort((a, b) => b.length - a.length)[0] ?? n;
    for (let x = n; x.length >= zone.length; x = x.slice(x.indexOf(".") + 1)) {
      out.add(x);
      if (!x.includes(".")) {
        break;
      }
    }
  }
  return [...out];
}

function pickName(r: Rng, names: string[], zones: string[]): string {
  const k = r(100);
  if (k < 50) return pick(r, names);
  if (k < 65) {
    // A wildcard match: its `*` replaced by one or two labels.
    const wild = names.filter((n) => n.startsWith("*."));
    const w = pick(r, wild);
    return (r(3) === 0 ? `${label(r)}.${label(r)}` : label(r)) + w.slice(1);
  }
  if (k < 85) return `${label(r)}.${pick(r, names)}`; // below an existing name: mostly NXDOMAIN
  if (k < 93) return `${label(r)}.${pick(r, zones)}`;
  return pick(r, OUTSIDE);
}

function mixCase(r: Rng, name: string): string {
  if (r(2) === 0) return name;
  return [...name].map((c) => (r(2) ? c.toUpperCase() : c)).join("");
}

function encodeName(name: string): number[] {
  if (name === ".") return [0];
  const out: number[] = [];
  for (const l of name.split(".")) {
    const b = new TextEncoder().encode(l);
    out.push(b.length, ...b);
  }
  out.push(0);
  return out;
}

const u16 = (n: number) => [(n >> 8) & 255, n & 255];

interface Shape {
  id: number;
  name: string;
  type: number;
  cls: number;
  opcode: number;
  rd: boolean;
  cd: boolean;
  edns: DiffQuery["edns"];
  /** IXFR: the client's SOA in the authority section (RFC 1995 §3). */
  ixfrSoa: string | null;
}

function encode(s: Shape): Uint8Array {
  const arcount = s.edns ? 1 : 0;
  const nscount = s.ixfrSoa ? 1 : 0;
  const flags = (s.opcode << 11) | (s.rd ? 0x100 : 0) | (s.cd ? 0x10 : 0);
  const out = [...u16(s.id), ...u16(flags), ...u16(1), 0, 0, ...u16(nscount), ...u16(arcount)];
  out.push(...encodeName(s.name), ...u16(s.type), ...u16(s.cls));
  if (s.ixfrSoa) {
    const rdata = [...encodeName(`ns.${s.ixfrSoa}`), ...encodeName(`h.${s.ixfrSoa}`)];
    rdata.push(0, 0, 0, 1, ...Array(16).fill(0)); // serial 1, timers 0
    out.push(...encodeName(s.ixfrSoa), ...u16(6), ...u16(1), 0, 0, 0, 0);
    out.push(...u16(rdata.length), ...rdata);
  }
  if (s.edns) {
    const ttl = [0, s.edns.version, s.edns.do ? 0x80 : 0, 0];
    out.push(0, ...u16(41), ...u16(s.edns.size), ...ttl, 0, 0);
  }
  return new Uint8Array(out);
}

function typeName(code: number): string {
  return Object.entries(TYPE_CODES).find(([, c]) => c === code)?.[0] ?? `TYPE${code}`;
}

function className(code: number): string {
  return Object.entries(CLASS_CODES).find(([, c]) => c === code)?.[0] ?? `CLASS${code}`;
}

function pickShape(r: Rng, u: QueryUniverse, names: string[], id: number): Shape {
  const allTypes = Object.keys(TYPE_CODES);
  const t = r(10) < 6 ? pick(r, [...u.types, "A", "AAAA", "ANY", "DS"]) : pick(r, allTypes);
  // Transfers are asked for at a zone apex half of the time: elsewhere they are all NOTAUTH.
  const apex = (t === "AXFR" || t === "IXFR") && r(2) === 0;
  const name = mixCase(r, apex ? pick(r, u.zones) : pickName(r, names, u.zones));
  const kc = r(100);
  const cls = kc < 82
    ? 1
    : kc < 87
    ? 255
    : kc < 91
    ? 3
    : kc < 95
    ? 4
    : kc < 97
    ? 254
    : 1 + r(65535);
  const opcode = r(100) < 93 ? 0 : r(16);
  const ke = r(100);
  const edns = ke < 25 ? null : {
    size: pick(r, [512, 1232, 4096, 65535]),
    do: r(2) === 0,
    version: r(100) < 3 ? 1 : 0,
  };
  const type = TYPE_CODES[t] ?? 1;
  const ixfrSoa = type === 251 && r(2) === 0 ? pick(r, u.zones) : null;
  return { id, name, type, cls, opcode, rd: r(2) === 0, cd: r(10) === 0, edns, ixfrSoa };
}

function describe(s: Shape): string {
  const parts = [s.name, typeName(s.type), className(s.cls)];
  if (s.opcode) parts.push(`opcode=${s.opcode}`);
  parts.push(s.edns ? `edns=${s.edns.size}${s.edns.do ? "+do" : ""}` : "noedns");
  if (s.edns?.version) parts.push(`version=${s.edns.version}`);
  if (s.rd) parts.push("rd");
  if (s.cd) parts.push("cd");
  if (s.ixfrSoa) parts.push("with-soa");
  return parts.join(" ");
}

const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** `count` queries from `r`; about one in twelve is a mutated (usually malformed) message. */
export function generateQueries(r: Rng, u: QueryUniverse, count: number): DiffQuery[] {
  const names = allNames(u);
  const out: DiffQuery[] = [];
  for (let i = 0; i < count; i++) {
    const s = pickShape(r, u, names, r(65536));
    const valid = encode(s);
    const malformed = r(12) === 0;
    const bytes = malformed ? mutate(valid, r) : valid;
    out.push({
      bytes,
      desc: malformed ? `mutated ${toHex(bytes)} (from ${describe(s)})` : describe(s),
      qname: s.name,
      qtype: typeName(s.type),
      qclass: className(s.cls),
      opcode: s.opcode,
      edns: s.edns,
      malformed,
      ixfrSoa: s.ixfrSoa !== null,
    });
  }
  return out;
}
