/**
 * Zod schemas of the DNSSEC routes (specs/dns.md, `/zones/{name}/dnssec`):
 * the request body checked by the router (400 for a wrong type or an unknown
 * field) and the response shape for the OpenAPI document. Which algorithm and
 * key size go together is the service's rule (422, fields `algorithm` and
 * `key_size`); the document states it as examples and bounds.
 */
import { z } from "zod";
import { pageQueryFields } from "../../paging.ts";
import { documented } from "../../schema_doc.ts";
import { KEY_SIZES } from "./algorithms.ts";
import { ROTATION_DAYS } from "./rollover.ts";
import { ALGORITHM_NAMES } from "./types.ts";

const ALGORITHMS = Object.entries(ALGORITHM_NAMES).flatMap(([code, name]) => [name, code]);

const Algorithm = documented(z.string().min(1).max(32), {
  description:
    "ECDSAP256SHA256 (13, the default), ED25519 (15) or RSASHA256 (8), by mnemonic or number",
  enum: ALGORITHMS,
});

const KeySize = documented(z.number("must be an integer").int("must be an integer"), {
  description: `RSASHA256: the modulus length, ${KEY_SIZES[8].min} to ${
    KEY_SIZES[8].max
  } (default ${
    KEY_SIZES[8].default
  }); the other algorithms have a fixed size of 256, which key_size may repeat`,
  minimum: KEY_SIZES[13].min,
  maximum: KEY_SIZES[8].max,
});

const RotationDays = documented(
  z.number("must be an integer").int("must be an integer").min(ROTATION_DAYS.min).max(
    ROTATION_DAYS.max,
  ),
  {
    description:
      "Automatic ZSK rotation: a rollover starts once the active ZSK has signed this many days",
  },
);

/** `POST /zones/{name}/dnssec`. */
export const DnssecInputSchema = documented(
  z.strictObject({
    enable: z.boolean(),
    algorithm: Algorithm.optional(),
    key_size: KeySize.optional(),
    zsk_rotation_days: RotationDays.nullable().optional(),
  }),
  {
    description:
      "Enabling with the algorithm (and size) of kept keys reuses them. zsk_rotation_days turns automatic ZSK rotation on (null: off); absent keeps it",
    examples: [
      { enable: true },
      { enable: true, zsk_rotation_days: 90 },
      { enable: true, algorithm: "ED25519" },
      { enable: true, algorithm: "13", key_size: 256 },
      { enable: true, algorithm: "RSASHA256", key_size: 2048 },
      { enable: false },
    ],
  },
);

const DnssecKeySchema = z.object({
  id: z.string(),
  algorithm: z.enum(Object.values(ALGORITHM_NAMES)),
  key_type: z.enum(["KSK", "ZSK"]),
  bits: z.number().int(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  state: z.enum(["published", "active", "retired", "removed"]),
  publish_at: z.string(),
  activate_at: z.string(),
  retire_at: z.string().nullable(),
  remove_at: z.string().nullable(),
  key_tag: z.number().int(),
  flags: z.number().int(),
  public_key: z.string(),
});

const DsRecordSchema = z.object({
  key_tag: z.string(),
  algorithm: z.string(),
  digest_type: z.string(),
  digest: z.string(),
});

/**
 * Query of `GET /zones/{name}/dnssec`: the shared paging fields
 * (docs/api.md, "Pagination") for its key list, prefixed `keys_`.
 */
export const DnssecStatusQuery = z.object({
  keys_limit: pageQueryFields.limit,
  keys_cursor: pageQueryFields.cursor.describe(
    "The keys_next_cursor of the previous answer (opaque; empty: the first page); not with keys_offset",
  ),
  keys_offset: pageQueryFields.offset,
});

/** `GET` and `POST /zones/{name}/dnssec`. */
export const DnssecStatusSchema = z.object({
  enabled: z.boolean(),
  keys: z.array(DnssecKeySchema).describe(
    "Every key; with keys_limit a page, oldest first by created_at and id",
  ),
  keys_total: z.number().int().describe("Every key of the zone, ignoring the page"),
  keys_next_cursor: z.string().nullable().describe(
    "Pass as keys_cursor for the next page of keys; null on the last page",
  ),
  ds_records: z.array(DsRecordSchema),
  rollover: z.object({
    old_key_id: z.string(),
    new_key_id: z.string().nullable(),
    completion_date: z.string(),
  }).nullable(),
  zsk_rotation_days: z.number().int().nullable(),
  warning: z.string().optional(),
});

/** `POST /zones/{name}/dnssec/rotate`. */
export const RotateResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  old_key_id: z.string(),
  new_key_id: z.string(),
  rollover_completion_date: z.string(),
});
