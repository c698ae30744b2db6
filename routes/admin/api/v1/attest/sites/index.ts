import {
  siteInputSchema,
  SiteSchema,
  SiteWithSecretSchema,
} from "@/lib/attest/sites/site_schemas.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(collection({
  key: "sites",
  item: SiteSchema,
  list: { summary: "Attestation sites, by name, without their secrets", access: "viewer" },
  create: {
    summary:
      "Register a site: answers its site key and its secret, shown only here; 409 for a taken name",
    access: "administrator",
    body: siteInputSchema,
    response: SiteWithSecretSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ sites: await ctx.services.attestSites.list() }),
  POST: (ctx) => ctx.services.attestSites.create(ctx.body, ctx.auth.user.username),
});
