import { HostError } from "@/lib/errors.ts";
import { PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Revoke the peer for good: off the host, keys erased, never enabled again",
    access: "operator",
    errors: [HostError],
    response: PeerSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.peers.revoke(ctx.params.id, ctx.auth.user.username),
});
