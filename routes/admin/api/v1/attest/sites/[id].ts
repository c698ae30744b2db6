import { siteInputSchema, SiteSchema } from "@/lib/attest/sites/site_schemas.ts";
import { member } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(member({
  member: SiteSchema,
  read: { summary: "One attestation site, without its secret", access: "viewer" },
  update: {
    summary: "Change a site's name, origins, min_chain and token_ttl_s (its key and secret stay)",
    access: "administrator",
    body: siteInputSchema,
  },
  remove: {
    summary: "Delete a site: its key and secret stop working at once",
    access: "administrator",
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.attestSites.get(ctx.params.id),
  PUT: (ctx) => ctx.services.attestSites.update(ctx.params.id, ctx.body, ctx.auth.user.username),
  async DELETE(ctx) {
    await ctx.services.attestSites.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Site deleted" };
  },
});
