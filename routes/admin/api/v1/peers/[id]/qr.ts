import { qrQuerySchema } from "@/lib/tunnel/schemas.ts";
import { PeerQrSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "The peer's configuration as a QR code: svg, data_url (PNG) and png_base64 (contains its private key; audited)",
    access: "operator",
    query: qrQuerySchema,
    response: PeerQrSchema,
  },
});

export const handler = define.handlers(meta, {
  GET(ctx) {
    // The images encode a private key: keep them out of caches.
    ctx.headers.set("Cache-Control", "no-store");
    return ctx.services.tunnels.peers.qr(
      ctx.params.id,
      ctx.query,
      ctx.auth.user.username,
    );
  },
});
