import { HostError } from "@/lib/errors.ts";
import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Bring the link up (also repairs a link set down by hand)",
    access: "operator",
    errors: [HostError],
    response: InterfaceSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.interfaces.enable(ctx.params.id, ctx.auth.user.username),
});
