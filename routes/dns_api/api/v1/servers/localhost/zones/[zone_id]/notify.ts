import { define } from "@/server/listeners/dns_api/context.ts";

// Key checked by ../../../_middleware.ts; documented in docs/dns.md, not in Palisade's OpenAPI document.
export const meta = define.meta({
  PUT: {
    summary: "PowerDNS API: send NOTIFY to the secondaries (PALISADE_DNS_NOTIFY)",
    access: "public",
    hidden: true,
  },
});

export const handler = define.handlers(meta, {
  PUT: (ctx) => ctx.services.dns.pdns.notify(ctx.state.pdnsScope, ctx.params.zone_id),
});
