import { z } from "zod";
import { ErrorSummary } from "@/components/error_summary.tsx";
import { Page } from "@/components/page.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import { pageRefusal } from "@/components/refusal.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "A peer's configuration as a QR code (page, or the SVG alone with format=svg)",
    access: "operator",
    query: z.object({ format: z.enum(["svg", "page"]).default("page") }),
  },
});

interface Data {
  id: string;
  name: string;
  src?: string;
  error?: string;
}

const NO_STORE = { "Cache-Control": "no-store" };

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { peers } = ctx.services.tunnels;
    const peer = peers.view(ctx.params.id);
    const actor = ctx.auth.user.username;
    try {
      const { svg } = await peers.qr(peer.id, { qr_format: "svg" }, actor);
      if (ctx.query.format === "svg") {
        return new Response(svg, {
          headers: { "Content-Type": "image/svg+xml", ...NO_STORE },
        });
      }
      ctx.state.title = `QR code of ${peer.name}`;
      const src = `data:image/svg+xml;base64,${btoa(svg)}`;
      return page<Data>({ id: peer.id, name: peer.name, src });
    } catch (err) {
      const { error, status } = pageRefusal(err);
      // The dialog reads the message as text; the page shows it in place of the image.
      if (ctx.query.format === "svg") {
        return new Response(error, {
          status,
          headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE },
        });
      }
      ctx.state.title = `QR code of ${peer.name}`;
      return page<Data>({ id: peer.id, name: peer.name, error }, { status });
    }
  },
});

/** The QR page, for browsers without JavaScript (the dialog shows the same image). */
export default function PeerQr({ data }: PageProps<Data>) {
  return (
    <Page title={`QR code of ${data.name}`} back={{ href: `/peers/${data.id}`, label: data.name }}>
      <div class="card stack qr-page">
        {data.src
          ? <img src={data.src} alt={`QR code of the configuration of ${data.name}`} />
          : <ErrorSummary message={data.error} />}
        <p class="help">
          Scan it with the WireGuard app. It holds the peer's private key: show it only to its
          owner.
        </p>
      </div>
    </Page>
  );
}
