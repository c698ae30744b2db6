import { HostError } from "@/lib/errors.ts";
import { PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Enable the peer: put it on the host (revoked peers: 409)",
    access: "operator",
    errors: [HostError],
    response: PeerSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.peers.enable(ctx.params.id, ctx.auth.user.username),
});
