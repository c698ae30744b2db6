import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: "Tear the device down and rebuild it from the store with all enabled peers",
    access: "operator",
    response: InterfaceSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) =>
    ctx.state.services.tunnels.interfaces.restart(ctx.params.id, ctx.state.auth!.user.username),
});
