import {
  UpstreamBody,
  upstreamFailure,
  UpstreamForm,
  upstreamInput,
} from "@/components/tunnels/upstream_form.tsx";
import { UpstreamPreviewView } from "@/components/tunnels/upstream_preview.tsx";
import { Page } from "@/components/page.tsx";
import type { UpstreamPreview } from "@/lib/tunnel/upstream_import.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Upstream import page: paste a provider's WireGuard configuration",
    access: "operator",
  },
  POST: {
    summary:
      "Preview (changes nothing, secrets redacted) or import an upstream interface from the pasted configuration; the configuration is never sent back",
    access: "operator",
    body: UpstreamBody,
  },
});

interface Data {
  form: FormState;
  preview: UpstreamPreview | null;
}

function load(ctx: SignedInContext, over: Partial<Data> = {}): Data {
  ctx.state.title = "Import upstream";
  return { form: emptyForm(), preview: null, ...over };
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    return page(load(ctx));
  },
  async POST(ctx) {
    const values = ctx.body;
    const { upstreams } = ctx.services.tunnels;
    try {
      if (values._action === "preview") {
        const preview = await upstreams.preview(upstreamInput(values));
        // The name is kept; the configuration (with its private key) is not.
        return page(load(ctx, { form: emptyForm({ name: values.name }), preview }));
      }
      const done = await upstreams.import(upstreamInput(values), ctx.auth.user.username);
      const notice = done.reconcile.verified ? "imported" : "imported_unverified";
      return ctx.redirect(`/tunnels/${done.interface.id}?done=${notice}`);
    } catch (err) {
      const { form, status } = upstreamFailure(err, values);
      return page(load(ctx, { form }), { status });
    }
  },
});

export default function ImportUpstream({ data }: PageProps<Data>) {
  return (
    <Page title="Import upstream" back={{ href: "/tunnels", label: "Tunnels" }}>
      <p class="muted">
        An upstream interface carries this server's own traffic to a third-party WireGuard server (a
        VPN provider, another site). Preview shows what would be created and changes nothing.
      </p>
      {data.preview && <UpstreamPreviewView preview={data.preview} />}
      <UpstreamForm form={data.form} previewed={data.preview !== null} />
    </Page>
  );
}
