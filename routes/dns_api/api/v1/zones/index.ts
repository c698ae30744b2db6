import { ZoneCreateInput, ZoneSummarySchema } from "@/lib/dns/schema.ts";
import { collection } from "@/server/http/collection.ts";
import { zonePageInScope } from "@/lib/dns/api_keys/scoped_zones.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta(collection({
  key: "zones",
  item: ZoneSummarySchema,
  list: {
    summary:
      "List zones by name with their record counts; paged by limit and cursor or offset (all without limit)",
    access: "viewer",
  },
  paged: true,
  create: {
    summary: "Create a zone with its SOA and apex NS (records_count 1)",
    access: "operator",
    body: ZoneCreateInput,
    response: ZoneSummarySchema,
  },
}));

export const handler = define.handlers(meta, {
  // A key sees the zones of its scope only.
  GET: (ctx) => zonePageInScope(ctx.services.dns, ctx.state.apiKey?.scope, ctx.query ?? {}),
  async POST(ctx) {
    await requireScope(ctx, { access: "write" });
    const z = await ctx.services.dns.createZone(ctx.auth.user.username, ctx.body);
    return {
      name: z.name,
      records_count: z.records_count,
      created_at: z.created_at,
      updated_at: z.updated_at,
    };
  },
});
