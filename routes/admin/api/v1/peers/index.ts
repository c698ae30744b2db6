import { peersQuerySchema } from "@/lib/tunnel/schemas.ts";
import { PeerPageSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary:
      "All peers across interfaces with live telemetry (one SQL query, one host read); filters interface_id, status, search (name); pagination limit/offset (all when no limit)",
    access: "viewer",
    query: peersQuerySchema,
    response: PeerPageSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.tunnels.peers.page(ctx.query),
});
