import { HostError } from "@/lib/errors.ts";
import { peerUpdateSchema } from "@/lib/tunnel/schemas.ts";
import { PeerSchema, PeerWithTelemetrySchema } from "@/lib/tunnel/response_schemas.ts";
import { member } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(member({
  member: PeerSchema,
  read: {
    summary: "One peer with live telemetry",
    access: "viewer",
    errors: [HostError],
    response: PeerWithTelemetrySchema,
  },
  update: {
    summary:
      "Update peer parameters; keys are kept (revoked peers: 409). Only address and preshared key changes reach the host",
    access: "operator",
    errors: [HostError],
    body: peerUpdateSchema,
  },
  remove: {
    summary: "Delete the peer and remove it from the host",
    access: "operator",
    errors: [HostError],
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.peers.get(ctx.params.id),
  PUT: (ctx) => ctx.services.tunnels.peers.update(ctx.params.id, ctx.body, ctx.auth.user.username),
  async DELETE(ctx) {
    await ctx.services.tunnels.peers.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Peer deleted" };
  },
});
