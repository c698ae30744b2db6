import { HostError } from "@/lib/errors.ts";
import { OkSchema } from "@/lib/auth/schema.ts";
import { interfaceUpdateSchema } from "@/lib/tunnel/schemas.ts";
import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "One interface", access: "viewer", response: InterfaceSchema },
  PUT: {
    summary:
      "Update name, address_v4, listen_port or mtu; the key pair is kept (renaming wg0 is 403)",
    access: "operator",
    errors: [HostError],
    body: interfaceUpdateSchema,
    response: InterfaceSchema,
  },
  DELETE: {
    summary: "Delete the interface, its peers and its device (wg0 is protected: 403)",
    access: "operator",
    errors: [HostError],
    response: OkSchema,
  },
});

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
