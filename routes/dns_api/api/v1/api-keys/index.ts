import { ApiKeyCreatedSchema, ApiKeyCreateInput, ApiKeySchema } from "@/lib/dns/api_keys/schema.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta(collection({
  key: "api_keys",
  item: ApiKeySchema,
  list: { summary: "List scoped API keys (never the keys)", access: "administrator" },
  create: {
    summary:
      'Create a scoped API key (administrator JWT); the key is in this answer only. The ACME-only scope: types ["TXT"], names ["_acme-challenge.*"], access write',
    access: "administrator",
    body: ApiKeyCreateInput,
    // A zone of the scope that does not exist.
    errors: [NotFoundError],
    response: ApiKeyCreatedSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ api_keys: await ctx.services.dnsApiKeys.list() }),
  POST: (ctx) => ctx.services.dnsApiKeys.create(ctx.auth.user.username, ctx.body),
});
