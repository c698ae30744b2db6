import { HostError } from "@/lib/errors.ts";
import { PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Disable the peer: take it off the host; it keeps its keys and address",
    access: "operator",
    errors: [HostError],
    response: PeerSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.peers.disable(ctx.params.id, ctx.auth.user.username),
});
