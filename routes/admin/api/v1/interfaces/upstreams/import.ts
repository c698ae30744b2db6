import { HostError } from "@/lib/errors.ts";
import { upstreamBodySchema, UpstreamImportSchema } from "@/lib/tunnel/upstream_schemas.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Create an upstream interface (dynamic listen port) and its provider peer from a third-party WireGuard configuration in one transaction, bring it up on the host and reconcile; errors as for preview",
    access: "operator",
    errors: [HostError],
    body: upstreamBodySchema,
    response: UpstreamImportSchema,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.upstreams.import(ctx.body, ctx.auth.user.username),
});
