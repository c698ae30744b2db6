import { pdnsBody } from "@/lib/dns/pdns/body.ts";
import { readLimited } from "@/server/http/request_body.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

// Key checked by ../../_middleware.ts; documented in docs/dns.md, not in Palisade's OpenAPI document.
export const meta = define.meta({
  GET: { summary: "PowerDNS API: zones (?zone=)", access: "public", hidden: true },
  POST: {
    summary: "PowerDNS API: create a zone",
    access: "public",
    hidden: true,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) =>
    ctx.services.dns.pdns.listZones(
      ctx.state.pdnsScope,
      ctx.url.searchParams.get("zone") ?? undefined,
    ),
  async POST(ctx) {
    const body = pdnsBody(await readLimited(ctx.req));
    return await ctx.services.dns.pdns.createZone(ctx.state.pdnsActor!, ctx.state.pdnsScope, body);
  },
});
