import { z } from "zod";
import { ActionButton } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import { DeliveryLog } from "@/components/webhooks/webhook_parts.tsx";
import type { DeliveryInfo, WebhookInfo } from "@/lib/webhooks/webhook_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { formText } from "@/server/http/form.ts";
import { ValidationError } from "@/lib/errors.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "A webhook: its events and delivery log", access: "administrator" },
  POST: {
    summary: "Send a test event to the webhook, enable it or disable it (`_action`)",
    access: "administrator",
    body: z.object({ _action: formText(20) }),
  },
});

interface Data {
  hook: WebhookInfo;
  log: DeliveryInfo[];
  notice: string | null;
}

async function load(ctx: SignedInContext, notice: string | null = null): Promise<Data> {
  const hook = await ctx.services.webhooks.get(ctx.params.id);
  ctx.state.title = "Webhook";
  return { hook, log: await ctx.services.webhooks.deliveries(hook.id), notice };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx));
  },
  async POST(ctx) {
    const { webhooks } = ctx.services;
    const actor = ctx.auth.user.username;
    const hook = await webhooks.get(ctx.params.id);
    let notice: string;
    if (ctx.body._action === "test") {
      const d = await webhooks.sendTest(actor, hook.id);
      notice = `Test sent: ${d.status}${d.response_code === null ? "" : ` (${d.response_code})`}.`;
    } else if (ctx.body._action === "enable" || ctx.body._action === "disable") {
      const enabled = ctx.body._action === "enable";
      await webhooks.update(actor, hook.id, { url: hook.url, events: hook.events, enabled });
      notice = enabled ? "Webhook enabled." : "Webhook disabled.";
    } else {
      throw new ValidationError(`Unknown action "${ctx.body._action}"`, "_action");
    }
    return page(await load(ctx, notice));
  },
});

export default function Webhook({ data }: PageProps<Data>) {
  const { hook } = data;
  return (
    <Page title="Webhook" notice={data.notice}>
      <p>
        <code>{hook.url}</code> — {hook.enabled ? "enabled" : "disabled"}; events{" "}
        {hook.events.join(", ")}.
      </p>
      <div class="form-actions">
        <ActionButton name="test" label="Send test" />
        {hook.enabled
          ? <ActionButton name="disable" label="Disable" />
          : <ActionButton name="enable" label="Enable" />}
        <a href={`/webhooks/${hook.id}/rotate-secret`}>Rotate secret</a>
        <a href={`/webhooks/${hook.id}/delete`}>Delete</a>
      </div>
      <h2>Delivery log</h2>
      <DeliveryLog rows={data.log} />
    </Page>
  );
}
