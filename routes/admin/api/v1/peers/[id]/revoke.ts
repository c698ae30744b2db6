import { PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: "Revoke the peer for good: off the host, keys erased, never enabled again",
    access: "operator",
    response: PeerSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) =>
    ctx.state.services.tunnels.peers.revoke(ctx.params.id, ctx.state.auth!.user.username),
});
