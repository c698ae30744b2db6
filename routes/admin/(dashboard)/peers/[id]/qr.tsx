import { z } from "zod";
import { Page } from "@/components/page.tsx";
import {
  choicesFailure,
  choiceValues,
  ConfigChoicesForm,
  ConfigChoicesQuery,
  configOptions,
} from "@/components/peers/config_choices.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "A peer's configuration as a QR code (page, or the SVG alone with format=svg), with the download's choices",
    access: "operator",
    query: ConfigChoicesQuery.extend({ format: z.enum(["svg", "page"]).default("page") }),
  },
});

interface Data {
  id: string;
  name: string;
  src?: string;
  form: FormState;
}

const NO_STORE = { "Cache-Control": "no-store" };

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { peers } = ctx.services.tunnels;
    const peer = await peers.view(ctx.params.id);
    const actor = ctx.auth.user.username;
    const { format, ...choices } = ctx.query;
    ctx.state.title = `QR code of ${peer.name}`;
    try {
      const opts = { ...configOptions(choices), qr_format: "svg" };
      const { svg } = await peers.qr(peer.id, opts, actor);
      if (format === "svg") {
        return new Response(svg, {
          headers: { "Content-Type": "image/svg+xml", ...NO_STORE },
        });
      }
      const src = `data:image/svg+xml;base64,${btoa(svg)}`;
      const form = emptyForm(choiceValues(choices));
      return page<Data>({ id: peer.id, name: peer.name, src, form });
    } catch (err) {
      const { form, status } = choicesFailure(err, choices);
      // The dialog reads the message as text; the page shows it next to its field.
      if (format === "svg") {
        return new Response(Object.values(form.errors)[0], {
          status,
          headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE },
        });
      }
      return page<Data>({ id: peer.id, name: peer.name, form }, { status });
    }
  },
});

/** The QR page, for browsers without JavaScript (the dialog shows the same image). */
export default function PeerQr({ data }: PageProps<Data>) {
  return (
    <Page title={`QR code of ${data.name}`} back={{ href: `/peers/${data.id}`, label: data.name }}>
      <div class="card stack qr-page">
        {data.src && <img src={data.src} alt={`QR code of the configuration of ${data.name}`} />}
        <p class="help">
          Scan it with the WireGuard app. It holds the peer's private key: show it only to its
          owner.
        </p>
        <ConfigChoicesForm
          action={`/peers/${data.id}/qr`}
          form={data.form}
          submitLabel="Show QR code"
        />
      </div>
    </Page>
  );
}
