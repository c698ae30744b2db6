import { OkSchema } from "@/lib/auth/schema.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  DELETE: {
    summary: "Delete a TSIG key: transfers and NOTIFY signed with it stop working",
    access: "administrator",
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  DELETE: (ctx) => ctx.services.dns.tsig.delete(ctx.auth.user.username, ctx.params.name),
});
