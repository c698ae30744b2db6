import { NetworkSchema } from "@/lib/tunnel/networks/network_schemas.ts";
import { removableMember } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(removableMember({
  member: NetworkSchema,
  read: { summary: "One network with its size and allocated addresses", access: "viewer" },
  remove: {
    summary: "Delete a network no interface uses (409 while an interface does)",
    access: "operator",
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.networks.get(ctx.params.id),
  async DELETE(ctx) {
    await ctx.services.tunnels.networks.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Network deleted" };
  },
});
