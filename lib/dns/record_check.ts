/**
 * The one validator of a record's type-specific data and TTL. Every way a
 * record comes in (create, update, batch, zone-file import) and the answer
 * index that serves it call this, so what is accepted and what is served
 * follow the same rules: what passes here can be encoded, and what the index
 * finds failing here (a row written around the service) is left out.
 */
import { type Origin, parseRdata } from "./rdata.ts";
import { validateTtl } from "./soa.ts";
import type { Token } from "./tokens.ts";

/** A checked record: canonical value, wire RDATA and the name it points at. */
export interface CheckedRecord {
  value: string;
  ttl: number;
  wire: Uint8Array;
  target?: string;
}

/** The input fields errors are to name: "value"/"ttl" through the API, "zone" for a zone file. */
export interface RecordFields {
  value: string;
  ttl: string;
}

const API_FIELDS: RecordFields = { value: "value", ttl: "ttl" };

/**
 * Checks data of canonical `type` (text or zone-file tokens; names relative to
 * `origin`, or absolute when it is null) and a TTL of 0 … 2 147 483 647 (RFC
 * 2181 §8); throws ValidationError naming the field.
 */
export function checkRecord(
  type: string,
  value: string | Token[],
  ttl: number,
  origin: Origin,
  fields: RecordFields = API_FIELDS,
): CheckedRecord {
  const rdata = parseRdata(type, value, origin, fields.value);
  return { ...rdata, ttl: validateTtl(ttl, fields.ttl) };
}
