import { HostError } from "@/lib/errors.ts";
import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Tear the device down and rebuild it from the store with all enabled peers",
    access: "operator",
    errors: [HostError],
    response: InterfaceSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.interfaces.restart(ctx.params.id, ctx.auth.user.username),
});
