import { PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: "Enable the peer: put it on the host (revoked peers: 409)",
    access: "operator",
    response: PeerSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) =>
    ctx.state.services.tunnels.peers.enable(ctx.params.id, ctx.state.auth!.user.username),
});
