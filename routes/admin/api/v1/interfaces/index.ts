import { interfaceCreateSchema } from "@/lib/tunnel/schemas.ts";
import { InterfaceListSchema, InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { Status } from "@/server/http/status.ts";

export const meta = defineMeta({
  GET: {
    summary: "Interfaces, by name, each with role, listen_port and peer_count",
    access: "viewer",
    response: InterfaceListSchema,
  },
  POST: {
    summary:
      "Create an overlay interface (key pair generated) and bring it up on the host; 409 for a duplicate name, address or port, 422 for a port or MTU out of range",
    access: "operator",
    body: interfaceCreateSchema,
    response: InterfaceSchema,
    status: Status.Created,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ({ interfaces: ctx.state.services.tunnels.interfaces.list() }),
  POST: (ctx) =>
    ctx.state.services.tunnels.interfaces.create(ctx.body, ctx.state.auth!.user.username),
});
