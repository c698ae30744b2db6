import { HostError } from "@/lib/errors.ts";
import { routeCreateSchema, RouteSchema } from "@/lib/tunnel/routes/schemas.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(collection({
  key: "routes",
  item: RouteSchema,
  list: {
    summary: "Routes Palisade keeps on the host, by destination then metric",
    access: "viewer",
  },
  create: {
    summary:
      "Create a route through a managed interface and apply it to the host; 400 for a malformed or non-canonical destination or gateway, 409 for a duplicate destination and metric, 422 for a metric out of range, an unknown interface_id or a gateway no managed interface reaches",
    access: "operator",
    errors: [HostError],
    body: routeCreateSchema,
    response: RouteSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ routes: await ctx.services.tunnels.routes.list() }),
  POST: (ctx) => ctx.services.tunnels.routes.create(ctx.body, ctx.auth.user.username),
});
