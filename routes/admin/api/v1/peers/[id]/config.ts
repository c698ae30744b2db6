import { configQuerySchema } from "@/lib/tunnel/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { attachment } from "@/server/http/attachment.ts";

export const meta = define.meta({
  GET: {
    summary:
      "Download the peer's wg-quick configuration (contains its private key; audited). Without endpoint the wireguard.server_* settings are used; no endpoint at all is 422",
    access: "operator",
    query: configQuerySchema,
    produces: "text/plain",
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const file = await ctx.services.tunnels.peers.config(
      ctx.params.id,
      ctx.query,
      ctx.auth.user.username,
    );
    // The service reduces the name to [A-Za-z0-9_=+.-]: the name is safe.
    return attachment(file.content, file.filename, "text/plain; charset=utf-8");
  },
});
