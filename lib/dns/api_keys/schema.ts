/** Zod schemas of the API key routes (docs/dns.md, "API keys"): the creation body and the answers. */
import { z } from "zod";

const Entries = (max: number, each: z.ZodString) =>
  z.union([z.literal("*"), z.array(each).min(1).max(max)]);

export const KeyScopeSchema = z.strictObject({
  /** Zone names (they must exist), or "*" for every zone, present and future. */
  zones: Entries(1000, z.string().min(1).max(255)),
  /** Record types (any case; stored upper case), or "*". */
  types: Entries(100, z.string().min(1).max(16)),
  /** Owner name patterns: a `*` label stands for one or more labels (`_acme-challenge.*`); or "*". */
  names: Entries(100, z.string().min(1).max(255)),
  access: z.enum(["read", "write"]),
});

export const ApiKeyCreateInput = z.strictObject({
  name: z.string().min(1).max(100),
  /** ISO 8601; absent or null: the key does not expire. */
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
