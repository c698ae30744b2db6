import { OkSchema } from "@/lib/auth/schema.ts";
import { ZoneDetailsSchema, ZoneUpdateInput, ZoneUpdateResultSchema } from "@/lib/dns/schema.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary: "A zone with all fields, its nameservers and DNSSEC state",
    access: "viewer",
    response: ZoneDetailsSchema,
  },
  PUT: {
    summary: "Change SOA fields (and apex nameservers); bumps the serial",
    access: "operator",
    body: ZoneUpdateInput,
    response: ZoneUpdateResultSchema,
  },
  DELETE: {
    summary: "Delete a zone and all its records",
    access: "operator",
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    await requireScope(ctx, { access: "read", zone: ctx.params.name });
    return await ctx.services.dns.getZone(ctx.params.name);
  },
  async PUT(ctx) {
    await requireScope(ctx, { access: "write", zone: ctx.params.name });
    const z = await ctx.services.dns.updateZone(
      ctx.auth.user.username,
      ctx.params.name,
      ctx.body,
    );
    // The spec answers with the fields that were sent; their stored (normalized) values.
    const sent = Object.fromEntries(
      Object.keys(ctx.body)
        .filter((k) => (ctx.body as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, z[k as keyof typeof z]]),
    );
    return { name: z.name, ...sent, serial: z.serial, updated_at: z.updated_at };
  },
  async DELETE(ctx) {
    await requireScope(ctx, { access: "write", zone: ctx.params.name });
    return await ctx.services.dns.deleteZone(ctx.auth.user.username, ctx.params.name);
  },
});
