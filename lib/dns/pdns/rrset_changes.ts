/**
 * The `rrsets` of a PowerDNS PATCH (and of a zone creation) read into
 * changes: each names a whole RRset (owner, type) to REPLACE with the given
 * records and TTL, or to DELETE. Malformed entries answer 422 with
 * PowerDNS's wording; a record that is `disabled` answers 501, since
 * Palisade serves every record it stores and has no disabled ones.
 */
import { NotImplementedError, UnprocessableError } from "../../errors.ts";
import { inZone, normalizeName } from "../names.ts";
import { normalizeType } from "../rdata.ts";
import { canonicalName } from "./names.ts";

export interface RRsetChange {
  /** Stored form: lower case, no trailing dot. */
  name: string;
  type: string;
  changetype: "REPLACE" | "DELETE";
  ttl: number;
  /** Presentation-format contents (REPLACE). */
  contents: string[];
  /** The owner as sent, for messages. */
  shown: string;
}

/** Reads `rrsets` for zone `zone`; `requireChangetype` false for a zone creation (always REPLACE). */
export function readRRsetChanges(
  rrsets: unknown,
  zone: string,
  requireChangetype = true,
): RRsetChange[] {
  if (rrsets === undefined && !requireChangetype) return [];
  if (!Array.isArray(rrsets)) throw new UnprocessableError("No rrsets given in request", "rrsets");
  const seen = new Set<string>();
  return rrsets.map((raw) => {
    const c = readOne(raw, zone, requireChangetype);
    const key = `${c.name} ${c.type}`;
    if (seen.has(key)) {
      throw new UnprocessableError(`Duplicate RRset ${c.shown} IN ${c.type} with changetype`);
    }
    seen.add(key);
    return c;
  });
}

function readOne(raw: unknown, zone: string, requireChangetype: boolean): RRsetChange {
  const r = (raw ?? {}) as Record<string, unknown>;
  const shown = canonicalName(r.name);
  const name = normalizeName(shown, "name", { wildcard: true, escapes: true });
  if (typeof r.type !== "string" || r.type === "") {
    throw new UnprocessableError("Key 'type' not present or not a String", "type");
  }
  let type: string;
  try {
    type = normalizeType(r.type);
  } catch {
    throw new UnprocessableError(`Unknown RR type '${r.type}'`, "type");
  }
  if (!inZone(name, zone)) {
    throw new UnprocessableError(`RRset ${shown} IN ${type}: Name is out of zone`, "name");
  }
  const changetype = requireChangetype ? String(r.changetype ?? "").toUpperCase() : "REPLACE";
  if (changetype === "DELETE") {
    return { name, type, changetype, ttl: 0, contents: [], shown };
  }
  if (changetype !== "REPLACE") throw new UnprocessableError("Changetype not understood");
  if (!Number.isInteger(r.ttl)) {
    throw new UnprocessableError("Key 'ttl' not an Integer or not present", "ttl");
  }
  return {
    name,
    type,
    changetype,
    ttl: r.ttl as number,
    contents: contentsOf(r, shown, type),
    shown,
  };
}

function contentsOf(r: Record<string, unknown>, shown: string, type: string): string[] {
  if (r.records === undefined) return [];
  if (!Array.isArray(r.records)) {
    throw new UnprocessableError("Key 'records' is not an Array", "records");
  }
  return r.records.map((rec) => {
    const e = (rec ?? {}) as Record<string, unknown>;
    if (typeof e.content !== "string") {
      throw new UnprocessableError("Key 'content' not present or not a String", "content");
    }
    if (e.disabled !== undefined && e.disabled !== false) {
      throw new NotImplementedError(
        `Record ${shown}/${type} '${e.content}': Palisade has no disabled records; delete the record instead`,
      );
    }
    // PowerDNS takes TXT and SPF data only as quoted strings; Palisade would quote bare text.
    if ((type === "TXT" || type === "SPF") && !e.content.startsWith('"')) {
      throw new UnprocessableError(
        `Record ${shown}/${type} '${e.content}': Data field in DNS should start with quote (") at position 0 of '${e.content}'`,
        "content",
      );
    }
    return e.content;
  });
}
