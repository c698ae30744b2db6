import { HostError } from "@/lib/errors.ts";
import { peerCreateSchema, peerListQuerySchema } from "@/lib/tunnel/schemas.ts";
import { PeerPageSchema, PeerSchema } from "@/lib/tunnel/response_schemas.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "Peers of one interface with live telemetry; filters status and search (name), pagination limit with cursor or offset (all when no limit)",
    access: "viewer",
    errors: [HostError],
    query: peerListQuerySchema,
    response: PeerPageSchema,
  },
  POST: {
    summary: "Create a peer (keys and address allocated unless given) and put only it on the host",
    access: "operator",
    errors: [HostError],
    body: peerCreateSchema,
    response: PeerSchema,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { interfaces, peers } = ctx.services.tunnels;
    await interfaces.get(ctx.params.id); // 404 for an unknown interface rather than an empty page
    return peers.page({ ...ctx.query, interface_id: ctx.params.id });
  },
  POST: (ctx) =>
    ctx.services.tunnels.peers.create(
      ctx.params.id,
      ctx.body,
      ctx.auth.user.username,
    ),
});
