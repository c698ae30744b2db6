/**
 * RFC 1035 §5 master files, as BIND and NSD read and write them: $ORIGIN,
 * $TTL, "@", relative names, blank owners, parentheses, comments, quoted
 * strings, optional class and TTL (in either order, with BIND's 1h30m units).
 * $INCLUDE and BIND's $GENERATE are refused rather than half-done.
 */
import { ValidationError } from "../errors.ts";
import { fqdn, inZone, isAbsoluteText, normalizeName } from "./names.ts";
import { normalizeType } from "./rdata.ts";
import { checkRecord } from "./record_check.ts";
import { isTtl, type ParsedSoa, parseSoa, parseTtl } from "./soa.ts";
import { type Entry, lex, type Token } from "./tokens.ts";

/** One record read from a zone file, names normalized, data canonical. */
export interface ZoneFileRecord {
  name: string;
  type: string;
  ttl: number;
  value: string;
  /** Bytes of its RDATA, for the RRset size check. */
  rdlen: number;
  line: number;
}

export interface ParsedZone {
  /** The SOA, if the file has one (at the apex). */
  soa?: ParsedSoa & { ttl: number };
  /** The line of the SOA, for errors found when its fields are applied. */
  soaLine?: number;
  /** Every other record, in file order; apex NS included. */
  records: ZoneFileRecord[];
}

const CLASSES = new Set(["IN", "CH", "HS", "CS"]);

/** Where the parser stands between entries: the directives and owner seen so far. */
interface ParseState {
  zone: string;
  field: string;
  origin: string;
  defaultTtl?: number;
  lastTtl?: number;
  lastOwner?: string;
  out: ParsedZone;
}

/** Parses master-file `text` for `zone`; throws ValidationError naming the line on any error. */
export function parseZoneFile(text: string, zone: string, field = "zone"): ParsedZone {
  const state: ParseState = { zone, field, origin: zone, out: { records: [] } };
  // lex() names the line of its own errors; an entry's errors are given its line here.
  for (const entry of lex(text, field)) {
    try {
      readEntry(state, entry);
    } catch (err) {
      if (err instanceof ValidationError) {
        throw err.withMessage(`Line ${entry.line}: ${err.message}`);
      }
      throw err;
    }
  }
  return state.out;
}

function fail(why: string, field: string): never {
  throw new ValidationError(why, field);
}

function readEntry(s: ParseState, entry: Entry): void {
  const first = entry.tokens[0];
  if (!entry.blankOwner && !first.quoted && first.text.startsWith("$")) {
    readDirective(s, entry.tokens);
  } else {
    readRecord(s, entry);
  }
}

function readDirective(s: ParseState, tokens: Token[]): void {
  const directive = tokens[0].text.toUpperCase();
  if (directive === "$ORIGIN") {
    if (tokens.length !== 2) fail("$ORIGIN takes one name", s.field);
    s.origin = absolute(tokens[1].text, s.origin, s.field);
  } else if (directive === "$TTL") {
    if (tokens.length !== 2) fail("$TTL takes one value", s.field);
    s.defaultTtl = parseTtl(tokens[1].text, s.field);
  } else {
    fail(`directive "${tokens[0].text}" is not supported`, s.field);
  }
}

function readRecord(s: ParseState, entry: Entry): void {
  const { tokens } = entry;
  let i = 0;
  let owner: string;
  if (entry.blankOwner) {
    if (s.lastOwner === undefined) fail("the first record has no owner name", s.field);
    owner = s.lastOwner!;
  } else {
    owner = absolute(tokens[0].text, s.origin, s.field, true);
    i = 1;
  }
  s.lastOwner = owner;
  const { ttl, klass, next } = readTtlAndClass(tokens, i, s.field);
  i = next;
  if (klass && klass !== "IN") fail(`class "${klass}" is not supported`, s.field);
  if (i >= tokens.length) fail("missing record type", s.field);
  const type = normalizeType(tokens[i].text, s.field);
  const rdata: Token[] = tokens.slice(i + 1);
  if (ttl !== undefined) s.lastTtl = ttl;
  // RFC 2308 §4: $TTL is the default; before RFC 2308 the last explicit TTL was.
  const effectiveTtl = ttl ?? s.defaultTtl ?? s.lastTtl;
  // Names outside the zone may as well mean the zone name given is wrong: the error is the zone name's.
  if (!inZone(owner, s.zone)) fail(`name "${owner}" is outside zone "${s.zone}"`, "name");
  if (type === "SOA") {
    if (owner !== s.zone) fail(`SOA record at "${owner}" is not at the zone apex`, s.field);
    if (s.out.soa) fail("a second SOA record", s.field);
    const soa = parseSoa(rdata, s.origin, s.field);
    // With neither an explicit TTL nor $TTL, BIND uses the SOA minimum.
    s.out.soa = { ...soa, ttl: effectiveTtl ?? soa.minimum };
    s.out.soaLine = entry.line;
    if (s.lastTtl === undefined && s.defaultTtl === undefined) s.lastTtl = s.out.soa.ttl;
    return;
  }
  if (effectiveTtl === undefined) fail("no TTL given and no $TTL before it", s.field);
  const fields = { value: s.field, ttl: s.field };
  const checked = checkRecord(type, rdata, effectiveTtl!, s.origin, fields);
  s.out.records.push({
    name: owner,
    type,
    ttl: checked.ttl,
    value: checked.value,
    rdlen: checked.wire.length,
    line: entry.line,
  });
}

/** The optional TTL and class after the owner, in either order. */
function readTtlAndClass(
  tokens: Token[],
  from: number,
  field: string,
): { ttl?: number; klass?: string; next: number } {
  let i = from;
  let ttl: number | undefined;
  let klass: string | undefined;
  for (let k = 0; k < 2 && i < tokens.length; k++) {
    const t = tokens[i].text;
    if (ttl === undefined && isTtl(t)) {
      ttl = parseTtl(t, field);
      i++;
    } else if (klass === undefined && CLASSES.has(t.toUpperCase())) {
      klass = t.toUpperCase();
      i++;
    }
  }
  return { ttl, klass, next: i };
}

function absolute(text: string, origin: string, field: string, wildcard = false): string {
  if (text === "@") return origin;
  const abs = isAbsoluteText(text) ? text : `${text}.${origin}`;
  return normalizeName(abs, field, { wildcard, escapes: true });
}

/** What a zone file is written from. */
export interface ZoneFileSource {
  name: string;
  default_ttl: number;
  soa: { ttl: number; value: string };
  /** Every record but the SOA: apex NS first is customary but not required. */
  records: { name: string; type: string; ttl: number; value: string }[];
}

/** Sort key of RFC 4034 §6.1 canonical order, close enough for reading: labels compared right to left. */
function orderKey(name: string): string {
  return name.split(".").reverse().join("\u0001");
}

/** Writes `zone` as a master file that BIND's named-checkzone and NSD's nsd-checkzone accept. */
export function serializeZoneFile(zone: ZoneFileSource): string {
  const rel = (name: string) => (name === zone.name ? "@" : name.slice(0, -(zone.name.length + 1)));
  const lines = [
    `; Zone ${zone.name}, exported by Palisade`,
    `$ORIGIN ${fqdn(zone.name)}`,
    `$TTL ${zone.default_ttl}`,
    `@\t${zone.soa.ttl}\tIN\tSOA\t${zone.soa.value}`,
  ];
  const recs = [...zone.records].sort((a, b) => {
    const ka = orderKey(a.name);
    const kb = orderKey(b.name);
    if (ka !== kb) return ka < kb ? -1 : 1;
    // NS first at a name, so a delegation reads as one.
    const ta = a.type === "NS" ? "" : a.type;
    const tb = b.type === "NS" ? "" : b.type;
    if (ta !== tb) return ta < tb ? -1 : 1;
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  });
  for (const r of recs) lines.push(`${rel(r.name)}\t${r.ttl}\tIN\t${r.type}\t${r.value}`);
  return lines.join("\n") + "\n";
}
