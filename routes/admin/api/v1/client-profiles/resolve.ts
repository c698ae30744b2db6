import { profileQuerySchema } from "@/lib/tunnel/schemas.ts";
import { ClientProfileSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "MTU and keepalive for a device (desktop, mobile, router) and connection (ipv4, ipv6, pppoe, cellular, restrictive-nat); defaults desktop/ipv4",
    access: "viewer",
    query: profileQuerySchema,
    response: ClientProfileSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.resolveClientProfile(ctx.query.device, ctx.query.connection),
});
