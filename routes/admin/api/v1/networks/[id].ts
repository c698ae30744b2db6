import { OkSchema } from "@/lib/auth/schema.ts";
import { NetworkSchema } from "@/lib/tunnel/networks/network_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

// member() also declares PUT; networks have no update, so GET and DELETE are declared alone.
export const meta = define.meta({
  GET: {
    summary: "One network with its size and allocated addresses",
    access: "viewer",
    response: NetworkSchema,
  },
  DELETE: {
    summary: "Delete a network no interface uses (409 while an interface does)",
    access: "operator",
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.networks.get(ctx.params.id),
  DELETE(ctx) {
    ctx.services.tunnels.networks.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Network deleted" };
  },
});
