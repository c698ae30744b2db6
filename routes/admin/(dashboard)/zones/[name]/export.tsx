import { Page } from "@/components/page.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import { pageRefusal } from "@/components/refusal.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Download a zone as an RFC 1035 master file", access: "viewer" },
});

interface Data {
  name: string;
  error: string;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const name = ctx.params.name;
    try {
      const text = await ctx.services.dns.exportZone(name);
      const file = name.replace(/[^a-z0-9._-]/gi, "_");
      return new Response(text, {
        headers: {
          "Content-Type": "text/dns; charset=utf-8",
          "Content-Disposition": `attachment; filename="${file}.zone"`,
        },
      });
    } catch (err) {
      ctx.state.title = "Export";
      const { error, status } = pageRefusal(err);
      return page<Data>({ name, error }, { status });
    }
  },
});

/** Shown only when the zone cannot be exported. */
export default function ExportError({ data }: PageProps<Data>) {
  return <Page title="Export" back={{ href: "/zones", label: "Zones" }} error={data.error} />;
}
