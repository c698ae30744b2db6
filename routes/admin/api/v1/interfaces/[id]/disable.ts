import { HostError } from "@/lib/errors.ts";
import { InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Take the link down; the device and its peers stay (wg0 is protected: 403)",
    access: "operator",
    errors: [HostError],
    response: InterfaceSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.interfaces.disable(ctx.params.id, ctx.auth.user.username),
});
