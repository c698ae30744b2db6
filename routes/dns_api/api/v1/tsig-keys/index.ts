import { TsigKeyCreatedSchema, TsigKeyCreateInput, TsigKeySchema } from "@/lib/dns/tsig/schema.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta(collection({
  key: "tsig_keys",
  item: TsigKeySchema,
  list: { summary: "List TSIG keys (never their secrets)", access: "administrator" },
  create: {
    summary: "Create a TSIG key; its base64 secret is shown in this answer only",
    access: "administrator",
    body: TsigKeyCreateInput,
    response: TsigKeyCreatedSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ tsig_keys: await ctx.services.dns.tsig.list() }),
  POST: (ctx) => ctx.services.dns.tsig.create(ctx.auth.user.username, ctx.body),
});
