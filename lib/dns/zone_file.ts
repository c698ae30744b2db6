/**
 * RFC 1035 §5 master files, as BIND and NSD read and write them: $ORIGIN,
 * $TTL, "@", relative names, blank owners, parentheses, comments, quoted
 * strings, optional class and TTL (in either order, with BIND's 1h30m units).
 * $INCLUDE and BIND's $GENERATE are refused rather than half-done.
 */
import { ValidationError } from "../errors.ts";
import { fqdn, inZone, normalizeName } from "./names.ts";
import { normalizeType, parseRdata } from "./rdata.ts";
import { isTtl, type ParsedSoa, parseSoa, parseTtl } from "./soa.ts";
import { lex, type Token } from "./tokens.ts";

/** One record read from a zone file, names normalized, data canonical. */
export interface ZoneFileRecord {
  name: string;
  type: string;
  ttl: number;
  value: string;
  line: number;
}

export interface ParsedZone {
  /** The SOA, if the file has one (at the apex). */
  soa?: ParsedSoa & { ttl: number };
  /** Every other record, in file order; apex NS included. */
  records: ZoneFileRecord[];
}

const CLASSES = new Set(["IN", "CH", "HS", "CS"]);

/** Parses master-file `text` for `zone`; throws ValidationError naming the line on any error. */
export function parseZoneFile(text: string, zone: string, field = "zone"): ParsedZone {
  let origin = zone;
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let lastOwner: string | undefined;
  const out: ParsedZone = { records: [] };
  for (const entry of lex(text, field)) {
    const at = (why: string): never => {
      throw new ValidationError(`Line ${entry.line}: ${why}`, field);
    };
    const tokens = entry.tokens;
    try {
      const first = tokens[0];
      if (!entry.blankOwner && !first.quoted && first.text.startsWith("$")) {
        const directive = first.text.toUpperCase();
        if (directive === "$ORIGIN") {
          if (tokens.length !== 2) at("$ORIGIN takes one name");
          origin = absolute(tokens[1].text, origin, field);
        } else if (directive === "$TTL") {
          if (tokens.length !== 2) at("$TTL takes one value");
          defaultTtl = parseTtl(tokens[1].text, field);
        } else {
          at(`directive "${first.text}" is not supported`);
        }
        continue;
      }
      let i = 0;
      let owner: string;
      if (entry.blankOwner) {
        if (lastOwner === undefined) at("the first record has no owner name");
        owner = lastOwner!;
      } else {
        owner = absolute(tokens[0].text, origin, field, true);
        i = 1;
      }
      lastOwner = owner;
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
      if (klass && klass !== "IN") at(`class "${klass}" is not supported`);
      if (i >= tokens.length) at("missing record type");
      const type = normalizeType(tokens[i].text, field);
      const rdata: Token[] = tokens.slice(i + 1);
      if (ttl !== undefined) lastTtl = ttl;
      // RFC 2308 §4: $TTL is the default; before RFC 2308 the last explicit TTL was.
      const effectiveTtl = ttl ?? defaultTtl ?? lastTtl;
      if (!inZone(owner, zone)) at(`name "${owner}" is outside zone "${zone}"`);
      if (type === "SOA") {
        if (owner !== zone) at(`SOA record at "${owner}" is not at the zone apex`);
        if (out.soa) at("a second SOA record");
        const soa = parseSoa(rdata, origin, field);
        // With neither an explicit TTL nor $TTL, BIND uses the SOA minimum.
        out.soa = { ...soa, ttl: effectiveTtl ?? soa.minimum };
        if (lastTtl === undefined && defaultTtl === undefined) lastTtl = out.soa.ttl;
        continue;
      }
      if (effectiveTtl === undefined) at("no TTL given and no $TTL before it");
      const parsed = parseRdata(type, rdata, origin, field);
      out.records.push({
        name: owner,
        type,
        ttl: effectiveTtl!,
        value: parsed.value,
        line: entry.line,
      });
    } catch (err) {
      if (err instanceof ValidationError && !err.message.startsWith("Line ")) {
        throw new ValidationError(`Line ${entry.line}: ${err.message}`, field);
      }
      throw err;
    }
  }
  return out;
}

function absolute(text: string, origin: string, field: string, wildcard = false): string {
  if (text === "@") return origin;
  if (text.includes("\\")) {
    throw new ValidationError(`Name "${text}" contains an escape, which is not supported`, field);
  }
  const abs = text.endsWith(".") ? text : `${text}.${origin}`;
  return normalizeName(abs, field, { wildcard });
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
