import { ClientProfileListSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Every device × connection transport profile with its MTU, keepalive and rules",
    access: "viewer",
    response: ClientProfileListSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ({ profiles: ctx.state.services.tunnels.listClientProfiles() }),
});
