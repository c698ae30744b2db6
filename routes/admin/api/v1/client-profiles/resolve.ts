import { profileQuerySchema } from "@/lib/tunnel/schemas.ts";
import { ClientProfileSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary:
      "MTU and keepalive for a device (desktop, mobile, router) and connection (ipv4, ipv6, pppoe, cellular, restrictive-nat); defaults desktop/ipv4",
    access: "viewer",
    query: profileQuerySchema,
    response: ClientProfileSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) =>
    ctx.state.services.tunnels.resolveClientProfile(ctx.query.device, ctx.query.connection),
});
