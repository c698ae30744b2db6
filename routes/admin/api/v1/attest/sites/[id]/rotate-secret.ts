import { SiteWithSecretSchema } from "@/lib/attest/sites/site_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Give a site a new secret, shown only in this response; the old secret stops working at once",
    access: "administrator",
    response: SiteWithSecretSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.attestSites.rotateSecret(ctx.params.id, ctx.auth.user.username),
});
