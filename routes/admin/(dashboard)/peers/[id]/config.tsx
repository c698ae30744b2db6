import { Page } from "@/components/page.tsx";
import {
  choicesFailure,
  ConfigChoicesForm,
  ConfigChoicesQuery,
  configOptions,
} from "@/components/peers/config_choices.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import type { FormState } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { attachment } from "@/server/http/attachment.ts";

export const meta = define.meta({
  GET: {
    summary: "Download a peer's client configuration (wg-quick file)",
    access: "operator",
    query: ConfigChoicesQuery,
  },
});

interface Data {
  id: string;
  form: FormState;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { peers } = ctx.services.tunnels;
    try {
      const opts = configOptions(ctx.query);
      const file = await peers.config(ctx.params.id, opts, ctx.auth.user.username);
      return attachment(file.content, file.filename, "text/plain; charset=utf-8");
    } catch (err) {
      ctx.state.title = "Configuration";
      const { form, status } = choicesFailure(err, ctx.query);
      return page<Data>({ id: ctx.params.id, form }, { status });
    }
  },
});

/** Shown only when the file cannot be produced: the choices again, the refusal by its field. */
export default function ConfigError({ data }: PageProps<Data>) {
  return (
    <Page title="Configuration" back={{ href: `/peers/${data.id}`, label: "Peer" }}>
      <div class="card stack">
        <ConfigChoicesForm
          action={`/peers/${data.id}/config`}
          form={data.form}
          submitLabel="Download configuration"
        />
        <p class="help">
          The endpoint is for this download only; set the public host in{" "}
          <a href="/settings">Settings</a> to use it for every peer.
        </p>
      </div>
    </Page>
  );
}
