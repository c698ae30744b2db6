import {
  availableQuerySchema,
  NetworkAvailableSchema,
} from "@/lib/tunnel/networks/network_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "Unallocated host addresses of the network, ascending, a page at a time (limit 1-1000, default 100; after: start above this address)",
    access: "viewer",
    query: availableQuerySchema,
    response: NetworkAvailableSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.networks.available(ctx.params.id, ctx.query),
});
