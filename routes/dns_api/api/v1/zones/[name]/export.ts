import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";
import { attachment } from "@/server/http/attachment.ts";

export const meta = define.meta({
  GET: {
    summary:
      "The zone as an RFC 1035 master file (text/dns; text/plain when the client accepts only that)",
    access: "viewer",
    produces: "text/dns",
  },
});

/** text/dns (RFC 4027) unless the client asks for text/plain and not text/dns (e.g. to view it). */
function contentType(accept: string | null): string {
  const a = (accept ?? "").toLowerCase();
  return a.includes("text/plain") && !a.includes("text/dns") ? "text/plain" : "text/dns";
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    await requireScope(ctx, { access: "read", zone: ctx.params.name, allRecords: true });
    const { dns } = ctx.services;
    const zone = (await dns.getZone(ctx.params.name)).name;
    const text = await dns.exportZone(zone);
    // Classless reverse zones hold "/", which a file name cannot.
    const file = `${zone.replaceAll("/", "_")}.zone`;
    return attachment(text, file, `${contentType(ctx.req.headers.get("accept"))}; charset=utf-8`);
  },
});
