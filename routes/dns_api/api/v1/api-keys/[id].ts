import { OkSchema } from "@/lib/auth/schema.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  DELETE: {
    summary: "Revoke (delete) a scoped API key: requests with it fail from now on",
    access: "administrator",
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  DELETE: (ctx) => ctx.services.dnsApiKeys.revoke(ctx.auth.user.username, ctx.params.id),
});
