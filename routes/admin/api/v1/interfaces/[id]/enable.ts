import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: "Bring the link up (also repairs a link set down by hand)",
    access: "operator",
    response: InterfaceSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) =>
    ctx.state.services.tunnels.interfaces.enable(ctx.params.id, ctx.state.auth!.user.username),
});
