import { networkCreateSchema, NetworkSchema } from "@/lib/tunnel/networks/network_schemas.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(collection({
  key: "networks",
  item: NetworkSchema,
  list: {
    summary: "Networks (IPAM), by name, each with its interface, size and allocated addresses",
    access: "viewer",
  },
  create: {
    summary:
      "Create a network from a canonical IPv4 block (/8 to /30); 409 for a taken name or a block overlapping another network",
    access: "operator",
    body: networkCreateSchema,
    response: NetworkSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ networks: await ctx.services.tunnels.networks.list() }),
  POST: (ctx) => ctx.services.tunnels.networks.create(ctx.body, ctx.auth.user.username),
});
