/** Zod schemas of the API key routes (docs/dns.md, "API keys"): the creation body and the answers. */
import { z } from "zod";
import { documented } from "../../schema_doc.ts";
import { RECORD_TYPES } from "../rdata.ts";
import { ZONE_NAME_PATTERN } from "../schema_examples.ts";

/** A name pattern: a domain name in which any label may be `*`. */
const NAME_PATTERN = "^((\\*|[A-Za-z0-9_-]{1,63})\\.)*(\\*|[A-Za-z][A-Za-z0-9-]{0,62})\\.?$";

const Entries = <T extends z.ZodType<string>>(max: number, each: T) =>
  z.union([z.literal("*"), z.array(each).min(1).max(max)]);

export const KeyScopeSchema = z.strictObject({
  /** Zone names (they must exist), or "*" for every zone, present and future. */
  zones: Entries(1000, documented(z.string().min(1).max(253), { pattern: ZONE_NAME_PATTERN })),
  /** Record types in upper case, or "*". */
  types: Entries(100, z.enum(RECORD_TYPES)),
  /** Owner name patterns: a `*` label stands for one or more labels (`_acme-challenge.*`); or "*". */
  names: Entries(100, documented(z.string().min(1).max(253), { pattern: NAME_PATTERN })),
  access: z.enum(["read", "write"]),
});

export const ApiKeyCreateInput = z.strictObject({
  name: z.string().min(1).max(100),
  /** ISO 8601; absent or null: the key does not expire (a time already past makes an expired key). */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  scope: KeyScopeSchema,
});

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: KeyScopeSchema,
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_by: z.string(),
  expired: z.boolean(),
});

/** The creation's answer: the only one that carries the key. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({ key: z.string() });
