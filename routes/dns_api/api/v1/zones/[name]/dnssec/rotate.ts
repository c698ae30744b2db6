import { RotateResultSchema } from "@/lib/dns/dnssec/schema.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Start a ZSK pre-publish rollover (RFC 7583): a new ZSK is published now, signs after the DNSKEY TTL and propagation delay, and the old one is removed once its signatures have left caches",
    access: "operator",
    response: RotateResultSchema,
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    await requireScope(ctx, { access: "write", zone: ctx.params.name });
    return await ctx.services.dns.rotateDnssec(ctx.auth.user.username, ctx.params.name);
  },
});
