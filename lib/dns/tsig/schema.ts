/** Zod schemas of the TSIG key routes (docs/dns.md, "TSIG"): the creation body and the answers. */
import { z } from "zod";
import { documented } from "../../schema_doc.ts";
import { ZONE_NAME_PATTERN } from "../schema_examples.ts";

const Algorithm = z.enum(["hmac-sha256", "hmac-sha512", "hmac-sha1"]);
const Permission = z.enum(["transfer", "update"]);

/** Base64 (padded) of at least 16 bytes: five whole groups and a last one. */
const BASE64_16 = /^([A-Za-z0-9+/]{4}){5,}([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

export const TsigKeyCreateInput = z.strictObject({
  name: documented(z.string().min(1).max(253), {
    pattern: "^[A-Za-z0-9_-]{1,63}(\\.[A-Za-z0-9_-]{1,63})*\\.?$",
    examples: ["xfr-key", "ns2.example.net"],
  }),
  /** hmac-sha256 when absent; hmac-sha1 only for secondaries that know no better. */
  algorithm: Algorithm.optional(),
  /** Zones the key may act on; empty or absent for every zone. */
  zones: z.array(documented(z.string().min(1).max(255), { pattern: ZONE_NAME_PATTERN })).max(1000)
    .optional(),
  /** ["transfer"] when absent. */
  permissions: z.array(Permission).min(1).max(2).optional(),
  /** Base64 of an existing secret (at least 16 bytes); a random one as long as the MAC when absent. */
  secret: z.string().max(1024).regex(BASE64_16, "must be base64 of at least 16 bytes").optional(),
});

export const TsigKeySchema = z.object({
  name: z.string(),
  algorithm: Algorithm,
  zones: z.array(z.string()),
  permissions: z.array(Permission),
  created_at: z.string(),
});

/** The creation's answer: the only one that carries the secret. */
export const TsigKeyCreatedSchema = TsigKeySchema.extend({ secret: z.string() });
