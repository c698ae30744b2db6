import { ZoneCreateInput, ZoneSummarySchema } from "@/lib/dns/schema.ts";
import { collection } from "@/server/http/collection.ts";
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
  GET: (ctx) => ctx.services.dns.listZonePage(ctx.query ?? {}),
  async POST(ctx) {
    const z = await ctx.services.dns.createZone(ctx.auth.user.username, ctx.body);
    return {
      name: z.name,
      records_count: z.records_count,
      created_at: z.created_at,
      updated_at: z.updated_at,
    };
  },
});
