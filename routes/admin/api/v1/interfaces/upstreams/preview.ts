import { upstreamBodySchema, UpstreamPreviewSchema } from "@/lib/tunnel/upstream_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Parse a third-party WireGuard configuration and show what import would create, every secret redacted; changes nothing. 400 for a syntax error and 422 for an unusable configuration (both name the line and key), 409 for a name, address or key already in use",
    access: "operator",
    body: upstreamBodySchema,
    response: UpstreamPreviewSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.upstreams.preview(ctx.body),
});
