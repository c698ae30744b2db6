import { define } from "@/server/listeners/dns_api/context.ts";

// Key checked by ./_middleware.ts; documented in docs/dns.md, not in Palisade's OpenAPI document.
export const meta = define.meta({
  GET: { summary: "PowerDNS API: the one server", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => [ctx.services.dns.pdns.server(ctx.state.pdnsScope)],
});
