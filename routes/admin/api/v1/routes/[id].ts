import { HostError } from "@/lib/errors.ts";
import { RouteSchema } from "@/lib/tunnel/routes/schemas.ts";
import { removableMember } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(removableMember({
  member: RouteSchema,
  read: { summary: "One route", access: "viewer" },
  remove: {
    summary: "Delete the route and take it off the host",
    access: "operator",
    errors: [HostError],
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.routes.get(ctx.params.id),
  async DELETE(ctx) {
    await ctx.services.tunnels.routes.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Route deleted" };
  },
});
