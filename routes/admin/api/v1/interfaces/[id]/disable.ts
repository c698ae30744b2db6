import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: "Take the link down; the device and its peers stay (wg0 is protected: 403)",
    access: "operator",
    response: InterfaceSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) =>
    ctx.state.services.tunnels.interfaces.disable(ctx.params.id, ctx.state.auth!.user.username),
});
