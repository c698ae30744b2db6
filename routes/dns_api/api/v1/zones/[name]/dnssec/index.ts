import {
  DnssecInputSchema,
  DnssecStatusQuery,
  DnssecStatusSchema,
} from "@/lib/dns/dnssec/schema.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "The zone's DNSSEC state: its keys (paged with keys_limit and keys_cursor or keys_offset; all when no keys_limit) and the DS records to give the parent zone",
    access: "viewer",
    query: DnssecStatusQuery,
    response: DnssecStatusSchema,
  },
  POST: {
    summary:
      "Enable DNSSEC (a KSK and a ZSK, new or kept) or disable it (keys kept; the answer carries a warning)",
    access: "operator",
    body: DnssecInputSchema,
    response: DnssecStatusSchema,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    await requireScope(ctx, { access: "read", zone: ctx.params.name });
    return await ctx.services.dns.dnssecStatus(ctx.params.name, ctx.query);
  },
  async POST(ctx) {
    await requireScope(ctx, { access: "write", zone: ctx.params.name });
    return await ctx.services.dns.setDnssec(ctx.auth.user.username, ctx.params.name, ctx.body);
  },
});
