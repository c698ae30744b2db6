import { configQuerySchema } from "@/lib/tunnel/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

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
  GET(ctx) {
    const file = ctx.services.tunnels.peers.config(
      ctx.params.id,
      ctx.query,
      ctx.auth.user.username,
    );
    return new Response(file.content, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        // The service reduces the name to [A-Za-z0-9_=+.-], so quoting is enough.
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        // A private key must not linger in caches.
        "Cache-Control": "no-store",
      },
    });
  },
});
