import { ClientProfileListSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Every device × connection transport profile with its MTU, keepalive and rules",
    access: "viewer",
    response: ClientProfileListSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ({ profiles: ctx.services.tunnels.listClientProfiles() }),
});
