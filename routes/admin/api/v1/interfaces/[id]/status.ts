import { HostError } from "@/lib/errors.ts";
import { InterfaceStatusSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "Live state of the interface from one host read: link, listen port, counters, per-peer metrics",
    access: "viewer",
    errors: [HostError],
    response: InterfaceStatusSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.interfaces.status(ctx.params.id),
});
