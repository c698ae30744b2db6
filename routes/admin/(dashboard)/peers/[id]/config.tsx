import { z } from "zod";
import { ErrorSummary } from "@/components/error_summary.tsx";
import { Page } from "@/components/page.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import { pageRefusal } from "@/components/refusal.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Download a peer's client configuration (wg-quick file)",
    access: "operator",
    query: z.object({
      endpoint: z.string().max(300).optional(),
      device: z.string().max(40).optional(),
      connection: z.string().max(40).optional(),
    }),
  },
});

interface Data {
  id: string;
  error: string;
  endpoint: string;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    const { peers } = ctx.services.tunnels;
    const q = ctx.query;
    const opts = {
      endpoint: q.endpoint || undefined,
      device: q.device || undefined,
      connection: q.connection || undefined,
    };
    try {
      const file = peers.config(ctx.params.id, opts, ctx.auth.user.username);
      return new Response(file.content, {
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          "Content-Disposition": `attachment; filename="${file.filename}"`,
          // The file holds a private key: no cache may keep it.
          "Cache-Control": "no-store",
        },
      });
    } catch (err) {
      ctx.state.title = "Configuration";
      const { error, status } = pageRefusal(err);
      return page<Data>({ id: ctx.params.id, error, endpoint: q.endpoint ?? "" }, { status });
    }
  },
});

/** Shown only when the file cannot be produced; offers the endpoint the settings lack. */
export default function ConfigError({ data }: PageProps<Data>) {
  return (
    <Page title="Configuration" back={{ href: `/peers/${data.id}`, label: "Peer" }}>
      <div class="card stack">
        <ErrorSummary message={data.error} />
        <form method="get" class="row" aria-label="Download with an endpoint">
          <label class="grow">
            Server endpoint
            <input
              name="endpoint"
              value={data.endpoint}
              placeholder="vpn.example.org:51820"
              aria-describedby="endpoint-help"
            />
          </label>
          <button type="submit" class="primary">Download</button>
        </form>
        <p id="endpoint-help" class="help">
          For this download only; set the public host in <a href="/settings">Settings</a>{" "}
          to use it for every peer.
        </p>
      </div>
    </Page>
  );
}
