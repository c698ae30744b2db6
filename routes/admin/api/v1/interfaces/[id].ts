import { HostError } from "@/lib/errors.ts";
import { interfaceUpdateSchema } from "@/lib/tunnel/schemas.ts";
import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { member } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(member({
  member: InterfaceSchema,
  read: { summary: "One interface", access: "viewer" },
  update: {
    summary:
      "Update name, address_v4, listen_port or mtu; the key pair is kept (renaming wg0 is 403)",
    access: "operator",
    errors: [HostError],
    body: interfaceUpdateSchema,
  },
  remove: {
    summary: "Delete the interface, its peers and its device (wg0 is protected: 403)",
    access: "operator",
    errors: [HostError],
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.interfaces.get(ctx.params.id),
  PUT: (ctx) =>
    ctx.services.tunnels.interfaces.update(
      ctx.params.id,
      ctx.body,
      ctx.auth.user.username,
    ),
  async DELETE(ctx) {
    await ctx.services.tunnels.interfaces.delete(
      ctx.params.id,
      ctx.auth.user.username,
    );
    return { success: true, message: "Interface deleted" };
  },
});
