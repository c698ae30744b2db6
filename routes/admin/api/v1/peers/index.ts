import { HostError } from "@/lib/errors.ts";
import { peersQuerySchema } from "@/lib/tunnel/schemas.ts";
import { PeerPageSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "All peers across interfaces with live telemetry (one SQL query, one host read); filters interface_id, status, search (name); pagination limit with cursor or offset (all when no limit)",
    access: "viewer",
    errors: [HostError],
    query: peersQuerySchema,
    response: PeerPageSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.peers.page(ctx.query),
});
