import { PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: "Disable the peer: take it off the host; it keeps its keys and address",
    access: "operator",
    response: PeerSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) =>
    ctx.state.services.tunnels.peers.disable(ctx.params.id, ctx.state.auth!.user.username),
});
