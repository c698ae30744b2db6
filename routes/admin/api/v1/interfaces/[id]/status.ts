import { InterfaceStatusSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary:
      "Live state of the interface from one host read: link, listen port, counters, per-peer metrics",
    access: "viewer",
    response: InterfaceStatusSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.tunnels.interfaces.status(ctx.params.id),
});
