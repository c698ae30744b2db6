/**
 * Zod schemas of the DNS management API at the edge (specs/dns.md): request
 * bodies checked by the router (400 naming the field), response shapes for the
 * OpenAPI document. Types and static bounds live here; names, values and the
 * zone rules are checked by `DnsService`, which owns their meaning and its
 * answers. The document states those rules too (`documented`: record types,
 * name patterns, the e-mail format), with examples where JSON Schema cannot
 * (schema_examples.ts).
 */
import { pageQueryFields, pageResponseFields } from "../paging.ts";
import { z } from "zod";
import { documented } from "../schema_doc.ts";
import { RECORD_TYPES } from "./rdata.ts";
import { MAX_BATCH } from "./record_batch.ts";
import {
  createExamples,
  DOMAIN_PATTERN,
  TIMER_EXAMPLES,
  ZONE_NAME_PATTERN,
  ZONE_TEXT_EXAMPLE,
} from "./schema_examples.ts";
import { MAX_TTL, SOA_LIMITS, type SoaTimers } from "./soa.ts";

/** A timer field with the bounds of docs/dns.md, so OpenAPI shows them too. */
function timer(key: keyof SoaTimers) {
  const [lo, hi] = SOA_LIMITS[key];
  const range = `must be an integer from ${lo} to ${hi}`;
  // Examples that agree with each other and the defaults: retry <= refresh, expire >= both.
  return documented(z.number(range).int(range).min(lo, range).max(hi, range), {
    examples: TIMER_EXAMPLES[key],
  });
}

const ttlRange = `must be an integer from 0 to ${MAX_TTL}`;
const Ttl = z.number(ttlRange).int(ttlRange).min(0, ttlRange).max(MAX_TTL, ttlRange);

/** Host names (trailing dot optional); `{zone}` is replaced by the zone name. */
const Nameservers = documented(z.array(z.string().min(1).max(255)).min(1).max(16), {
  examples: [["ns1.example.net", "ns2.example.net"], ["ns1.{zone}"]],
});

const ZoneName = documented(z.string().min(1).max(255), { pattern: ZONE_NAME_PATTERN });
/** The service checks the address (400); the document says it is an e-mail address. */
const AdminEmail = documented(z.string().min(3).max(254), { format: "email" });

/** What JSON Schema cannot say of the timers: the service answers 422 when they disagree. */
const TIMER_RULES = "retry must not exceed refresh, and expire must be at least refresh plus retry";

/** `POST /zones`: timers left out take the defaults of docs/dns.md. */
export const ZoneCreateInput = documented(
  z.strictObject({
    name: ZoneName,
    admin_email: AdminEmail,
    refresh: timer("refresh").optional(),
    retry: timer("retry").optional(),
    expire: timer("expire").optional(),
    minimum: timer("minimum").optional(),
    default_ttl: timer("default_ttl").optional(),
    /** Overrides PALISADE_DNS_NAMESERVERS for this zone. */
    nameservers: Nameservers.optional(),
  }),
  { description: `Timers left out take their defaults; ${TIMER_RULES}` },
);

/** `PUT /zones/{name}`: any subset of the SOA fields (and the apex nameservers). */
export const ZoneUpdateInput = documented(
  z.strictObject({
    admin_email: AdminEmail.optional(),
    refresh: timer("refresh").optional(),
    retry: timer("retry").optional(),
    expire: timer("expire").optional(),
    minimum: timer("minimum").optional(),
    default_ttl: timer("default_ttl").optional(),
    nameservers: Nameservers.optional(),
  }).refine((o) => Object.values(o).some((v) => v !== undefined), {
    message: "give at least one field to update",
  }),
  { minProperties: 1, description: `Any subset of the fields; ${TIMER_RULES}` },
);

export const ZoneSummarySchema = z.object({
  name: z.string(),
  records_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ZoneDetailsSchema = ZoneSummarySchema.extend({
  admin_email: z.string(),
  serial: z.number().int(),
  refresh: z.number().int(),
  retry: z.number().int(),
  expire: z.number().int(),
  minimum: z.number().int(),
  default_ttl: z.number().int(),
  nameservers: z.array(z.string()),
  dnssec_enabled: z.boolean(),
});

/** `PUT /zones/{name}` answer: the name, the fields that were sent (as stored), updated_at. */
export const ZoneUpdateResultSchema = z.object({
  name: z.string(),
  admin_email: z.string().optional(),
  refresh: z.number().int().optional(),
  retry: z.number().int().optional(),
  expire: z.number().int().optional(),
  minimum: z.number().int().optional(),
  default_ttl: z.number().int().optional(),
  nameservers: z.array(z.string()).optional(),
  serial: z.number().int(),
  updated_at: z.string(),
});

const Domain = documented(z.string().min(1).max(255), {
  description:
    'An absolute name in the zone (trailing dot optional), "*." for a wildcard, "@" for the apex',
  pattern: DOMAIN_PATTERN,
  examples: ["www.example.com", "mail.example.com", "_sip._tcp.example.com"],
});
/** The service reads the type (case-insensitive; TYPEnnn of RFC 3597 too) and answers 400. */
const RecordType = documented(z.string().min(1).max(16), {
  description: "A record type; other types as TYPEnnn (RFC 3597)",
  enum: RECORD_TYPES,
});
/** What a record may be created as: the SOA comes from the zone's fields (422). */
const CreatableType = documented(z.string().min(1).max(16), {
  description: "A record type; other types as TYPEnnn (RFC 3597). The SOA comes from the zone",
  enum: RECORD_TYPES.filter((t) => t !== "SOA"),
});
/** Room for a TXT RRset's worth of text; the service checks the wire length. */
const Value = documented(z.string().max(65_535), {
  description: "The record data in the presentation format of its type",
});

/** `POST /zones/{name}/records`; ttl defaults to the zone's default_ttl. */
export const RecordCreateInput = documented(
  z.strictObject({ domain: Domain, type: CreatableType, value: Value, ttl: Ttl.optional() }),
  { oneOf: createExamples() },
);

/** `PUT /zones/{name}/records/{id}`: value and/or ttl. */
/** The service refuses an update without either (400). */
export const RecordUpdateInput = documented(
  z.strictObject({ value: Value.optional(), ttl: Ttl.optional() }),
  { minProperties: 1 },
);

export const RecordQuery = z.object({
  type: RecordType.optional(),
  ...pageQueryFields,
});

export const RecordSchema = z.object({
  id: z.string(),
  domain: z.string(),
  type: z.string(),
  value: z.string(),
  ttl: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const RecordListSchema = z.object({
  zone: z.string(),
  records: z.array(RecordSchema),
  ...pageResponseFields,
});

const Id = z.string().min(1).max(100);

export const BatchInput = z.strictObject({
  operations: z.array(
    z.discriminatedUnion("operation", [
      documented(
        z.strictObject({
          operation: z.literal("create"),
          domain: Domain,
          type: CreatableType,
          value: Value,
          ttl: Ttl.optional(),
        }),
        { oneOf: createExamples() },
      ),
      z.strictObject({
        operation: z.literal("update"),
        id: Id,
        value: Value.optional(),
        ttl: Ttl.optional(),
      }),
      z.strictObject({ operation: z.literal("delete"), id: Id }),
    ]),
  ).min(1).max(MAX_BATCH),
});

export const BatchResultSchema = z.object({
  operation: z.string(),
  id: z.string().optional(),
  status: z.enum(["created", "updated", "deleted", "failed", "rolled_back", "skipped"]),
  error: z.string().optional(),
});

export const BatchResponseSchema = z.object({
  success: z.boolean(),
  results: z.array(BatchResultSchema),
});

const Flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** Query of `POST /zones/{name}/import`; the only place for `replace` with a raw text body. */
export const ImportQuery = z.object({ replace: Flag.optional() });

/** An RFC 1035 master file; names without $ORIGIN are relative to the zone of the path. */
const ZoneText = documented(z.string(), {
  description: "An RFC 1035 master file; relative names are relative to the zone of the path",
  pattern: "\\S",
  examples: [ZONE_TEXT_EXAMPLE],
});

/** The JSON form of an import: the zone text under `zone_file` or `content`. */
export const ImportJsonInput = documented(
  z.strictObject({
    zone_file: ZoneText.optional(),
    content: ZoneText.optional(),
    replace: z.boolean().optional(),
  }).refine((o) => (o.zone_file === undefined) !== (o.content === undefined), {
    message: 'give the zone text as exactly one of "zone_file" or "content"',
  }),
  { oneOf: [{ required: ["zone_file"] }, { required: ["content"] }] },
);

/** The request bodies of `POST /zones/{name}/import`, which its handler reads itself. */
export const ImportBodies = {
  "application/json": ImportJsonInput,
  "text/dns": ZoneText,
  "text/plain": ZoneText,
} as const;

export const ImportResultSchema = z.object({
  zone: z.string(),
  created: z.boolean(),
  added: z.number().int(),
  skipped: z.number().int(),
  removed: z.number().int(),
  serial: z.number().int(),
});
