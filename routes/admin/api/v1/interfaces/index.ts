import { HostError, NotFoundError } from "@/lib/errors.ts";
import { PageQuery } from "@/lib/paging.ts";
import { interfaceCreateSchema } from "@/lib/tunnel/schemas.ts";
import { InterfaceListSchema, InterfaceSchema } from "@/lib/tunnel/response_schemas.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "Interfaces, by name, each with role, listen_port and peer_count; pagination limit with cursor or offset (all when no limit)",
    access: "viewer",
    query: PageQuery,
    response: InterfaceListSchema,
  },
  POST: {
    summary:
      "Create an overlay interface (key pair generated) and bring it up on the host; 409 for a duplicate name, address or port, 422 for a port or MTU out of range, 404 for a `dns_zone` that does not exist",
    access: "operator",
    errors: [HostError, NotFoundError],
    body: interfaceCreateSchema,
    response: InterfaceSchema,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.interfaces.page(ctx.query),
  POST: (ctx) => ctx.services.tunnels.interfaces.create(ctx.body, ctx.auth.user.username),
});
