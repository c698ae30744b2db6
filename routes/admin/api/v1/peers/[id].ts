import { OkSchema } from "@/lib/auth/schema.ts";
import { peerUpdateSchema } from "@/lib/tunnel/schemas.ts";
import { PeerSchema, PeerWithTelemetrySchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "One peer with live telemetry",
    access: "viewer",
    response: PeerWithTelemetrySchema,
  },
  PUT: {
    summary:
      "Update peer parameters; keys are kept (revoked peers: 409). Only address and preshared key changes reach the host",
    access: "operator",
    body: peerUpdateSchema,
    response: PeerSchema,
  },
  DELETE: {
    summary: "Delete the peer and remove it from the host",
    access: "operator",
    response: OkSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.tunnels.peers.get(ctx.params.id),
  PUT: (ctx) =>
    ctx.state.services.tunnels.peers.update(ctx.params.id, ctx.body, ctx.state.auth!.user.username),
  async DELETE(ctx) {
    await ctx.state.services.tunnels.peers.delete(ctx.params.id, ctx.state.auth!.user.username);
    return { success: true, message: "Peer deleted" };
  },
});
