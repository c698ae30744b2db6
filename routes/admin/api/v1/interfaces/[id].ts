import { OkSchema } from "@/lib/auth/schema.ts";
import { interfaceUpdateSchema } from "@/lib/tunnel/schemas.ts";
import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: { summary: "One interface", access: "viewer", response: InterfaceSchema },
  PUT: {
    summary:
      "Update name, address_v4, listen_port or mtu; the key pair is kept (renaming wg0 is 403)",
    access: "operator",
    body: interfaceUpdateSchema,
    response: InterfaceSchema,
  },
  DELETE: {
    summary: "Delete the interface, its peers and its device (wg0 is protected: 403)",
    access: "operator",
    response: OkSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.tunnels.interfaces.get(ctx.params.id),
  PUT: (ctx) =>
    ctx.state.services.tunnels.interfaces.update(
      ctx.params.id,
      ctx.body,
      ctx.state.auth!.user.username,
    ),
  async DELETE(ctx) {
    await ctx.state.services.tunnels.interfaces.delete(
      ctx.params.id,
      ctx.state.auth!.user.username,
    );
    return { success: true, message: "Interface deleted" };
  },
});
