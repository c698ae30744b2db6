import { define } from "@/server/listeners/dns_api/context.ts";

// Key checked by ../../../_middleware.ts; documented in docs/dns.md, not in Palisade's OpenAPI document.
export const meta = define.meta({
  GET: {
    summary: "PowerDNS API: the zone as zone-file lines",
    access: "public",
    hidden: true,
    produces: "text/plain",
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const text = await ctx.services.dns.pdns.exportZone(ctx.state.pdnsScope, ctx.params.zone_id);
    return new Response(text, { headers: { "Content-Type": "text/plain; charset=us-ascii" } });
  },
});
