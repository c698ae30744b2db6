import { historyJson, HistoryListSchema, HistoryQuery } from "@/lib/dns/history/schema.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "The zone's history (Palisade extension): change sets newest first, each with the RRsets it touched before and after",
    access: "viewer",
    query: HistoryQuery,
    response: HistoryListSchema,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    await requireScope(ctx, { access: "read", zone: ctx.params.name, allRecords: true });
    const { zone, changes } = await ctx.services.dns.listHistory(ctx.params.name, ctx.query);
    return { zone, changes: changes.map(historyJson) };
  },
});
