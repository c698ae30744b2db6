import type { z } from "zod";
import { Page } from "@/components/page.tsx";
import {
  eventField,
  NewWebhookForm,
  WEBHOOK_FIELDS,
  WebhookBody,
  WebhookSecret,
  WebhooksTable,
} from "@/components/webhooks/webhook_parts.tsx";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event_types.ts";
import type { WebhookInfo } from "@/lib/webhooks/webhook_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Webhooks page: every subscription and the new-webhook form",
    access: "administrator",
  },
  POST: {
    summary: "Create a webhook from the form; its signing secret is only on this answer",
    access: "administrator",
    body: WebhookBody,
  },
});

interface Data {
  hooks: WebhookInfo[];
  form: FormState;
  created: { url: string; secret: string } | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Webhooks";
  return { hooks: await ctx.services.webhooks.list(), form: emptyForm(), created: null, ...over };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx));
  },
  async POST(ctx) {
    const values = ctx.body as z.output<typeof WebhookBody> & Record<string, string>;
    const events = WEBHOOK_EVENT_TYPES.filter((t) => values[eventField(t)] === "true");
    try {
      const made = await ctx.services.webhooks.create(ctx.auth.user.username, {
        url: values.url,
        events,
      });
      // Answered, not redirected: the secret exists only in this response.
      return page(await load(ctx, { created: { url: made.url, secret: made.secret } }));
    } catch (err) {
      const { form, status } = formFailure(err, values, WEBHOOK_FIELDS, {
        aliases: Object.fromEntries(events.map((_, i) => [`events[${i}]`, "events"])),
      });
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Webhooks({ data }: PageProps<Data>) {
  return (
    <Page title="Webhooks">
      <p>
        Signed POSTs to your URLs when zones or peers change, peers connect or disconnect, or
        sign-ins fail repeatedly. See docs/webhooks.md for verifying the{" "}
        <code>Palisade-Signature</code> header.
      </p>
      {data.created && <WebhookSecret url={data.created.url} secret={data.created.secret} />}
      <WebhooksTable hooks={data.hooks} />
      <NewWebhookForm form={data.form} />
    </Page>
  );
}
