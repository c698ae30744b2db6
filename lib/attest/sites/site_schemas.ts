/**
 * Request and response shapes of the site routes (admin API), in zod:
 * requests are checked for types here (400), names, origins and ranges by
 * the service (400 naming the field); responses feed the OpenAPI document
 * and are kept equal to the service types at compile time.
 */
import { z } from "zod";
import { documented, patternOf } from "../../schema_doc.ts";
import type { SiteView, SiteWithSecret } from "./site_service.ts";
import {
  MIN_CHAIN_DEFAULT,
  MIN_CHAIN_MAX,
  MIN_CHAIN_MIN,
  ORIGINS_MAX,
  SITE_NAME,
  TOKEN_TTL_DEFAULT,
  TOKEN_TTL_MAX,
  TOKEN_TTL_MIN,
} from "./site_rules.ts";

const origin = documented(z.string(), {
  description:
    "Canonical origin scheme://host[:port] as the browser's Origin header says it: https, or http for localhost; no path",
  examples: ["https://shop.example", "https://www.shop.example:8443", "http://localhost:3000"],
});

/** POST /attest/sites and PUT /attest/sites/{id} */
export const siteInputSchema = z.strictObject({
  name: documented(z.string(), { pattern: patternOf(SITE_NAME) }),
  origins: z.array(origin).min(1).max(ORIGINS_MAX),
  min_chain: z.number().int().min(MIN_CHAIN_MIN).max(MIN_CHAIN_MAX).optional().describe(
    `Accepted heartbeats a session needs before a token is issued, default ${MIN_CHAIN_DEFAULT}`,
  ),
  token_ttl_s: z.number().int().min(TOKEN_TTL_MIN).max(TOKEN_TTL_MAX).optional().describe(
    `Seconds a token stays valid, default ${TOKEN_TTL_DEFAULT}`,
  ),
});

const iso = z.string().describe("ISO 8601 time");

/** A site (SiteView): never its secret. */
export const SiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  site_key: z.string().describe("Public key of the site (pk_…): the page's data-site-key"),
  origins: z.array(z.string()),
  min_chain: z.number().int(),
  token_ttl_s: z.number().int(),
  created_at: iso,
  updated_at: iso,
});

/** A site with its secret, answered once (creation, rotation). */
export const SiteWithSecretSchema = SiteSchema.extend({
  secret: z.string().describe(
    "The site's secret (sk_…) for siteverify; shown only in this response, stored as its SHA-256",
  ),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof SiteSchema>, SiteView>>();
same<Same<z.output<typeof SiteWithSecretSchema>, SiteWithSecret>>();
