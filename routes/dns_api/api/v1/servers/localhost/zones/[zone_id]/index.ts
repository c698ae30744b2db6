import { pdnsBody } from "@/lib/dns/pdns/body.ts";
import { readLimited } from "@/server/http/request_body.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

// Key checked by ../../../_middleware.ts; documented in docs/dns.md, not in Palisade's OpenAPI document.
export const meta = define.meta({
  GET: {
    summary: "PowerDNS API: a zone with its RRsets (?rrsets=false, ?rrset_name=, ?rrset_type=)",
    access: "public",
    hidden: true,
  },
  PATCH: { summary: "PowerDNS API: REPLACE or DELETE RRsets", access: "public", hidden: true },
  PUT: { summary: "PowerDNS API: zone fields", access: "public", hidden: true },
  DELETE: { summary: "PowerDNS API: delete a zone", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  GET(ctx) {
    const q = ctx.url.searchParams;
    return ctx.services.dns.pdns.getZone(ctx.state.pdnsScope, ctx.params.zone_id, {
      rrsets: q.get("rrsets") !== "false",
      name: q.get("rrset_name") ?? undefined,
      type: q.get("rrset_type") ?? undefined,
    });
  },
  async PATCH(ctx) {
    const body = pdnsBody(await readLimited(ctx.req));
    const { pdns } = ctx.services.dns;
    return await pdns.patchZone(
      ctx.state.pdnsActor!,
      ctx.state.pdnsScope,
      ctx.params.zone_id,
      body,
    );
  },
  async PUT(ctx) {
    const body = pdnsBody(await readLimited(ctx.req));
    return await ctx.services.dns.pdns.putZone(ctx.state.pdnsScope, ctx.params.zone_id, body);
  },
  DELETE: (ctx) =>
    ctx.services.dns.pdns.deleteZone(ctx.state.pdnsActor!, ctx.state.pdnsScope, ctx.params.zone_id),
});
