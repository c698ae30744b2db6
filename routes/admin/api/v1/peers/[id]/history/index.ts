import {
  changeJson,
  TunnelHistoryQuery,
  TunnelHistorySchema,
} from "@/lib/tunnel/history/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "The peer's history: its changes newest first, each with who, when, its state before and after (no secrets) and the fields that differ; kept after the peer is deleted",
    access: "viewer",
    query: TunnelHistoryQuery,
    response: TunnelHistorySchema,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const h = await ctx.services.tunnels.history.list("peer", ctx.params.id, ctx.query);
    return { ...h, changes: h.changes.map(changeJson) };
  },
});
