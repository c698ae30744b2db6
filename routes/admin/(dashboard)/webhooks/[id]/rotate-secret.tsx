/**
 * Rotating a webhook's signing secret: GET asks, POST rotates and shows the
 * new secret on its answer only (so not confirmRoute, which redirects after
 * acting). docs/webhooks.md, "Rotating the secret".
 */
import { ConfirmPage } from "@/components/confirm_page.tsx";
import { Page } from "@/components/page.tsx";
import { WebhookSecret } from "@/components/webhooks/webhook_parts.tsx";
import type { RotatedSecret, WebhookInfo } from "@/lib/webhooks/webhook_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm rotating a webhook's signing secret", access: "administrator" },
  POST: {
    summary: "Rotate a webhook's signing secret and show the new one once",
    access: "administrator",
  },
});

type Data = { hook: WebhookInfo; rotated: null } | { hook: WebhookInfo; rotated: RotatedSecret };

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Rotate webhook secret";
    return page<Data>({ hook: await ctx.services.webhooks.get(ctx.params.id), rotated: null });
  },
  async POST(ctx) {
    ctx.state.title = "Webhook secret rotated";
    const rotated = await ctx.services.webhooks.rotateSecret(
      ctx.auth.user.username,
      ctx.params.id,
    );
    return page<Data>({ hook: rotated, rotated });
  },
});

export default function RotateWebhookSecret({ data }: PageProps<Data>) {
  const { hook } = data;
  const back = `/webhooks/${encodeURIComponent(hook.id)}`;
  if (data.rotated) {
    return (
      <Page title="Webhook secret rotated" back={{ href: back, label: "Back" }}>
        <WebhookSecret
          url={hook.url}
          secret={data.rotated.secret}
          what="has a new secret"
          note={`Until ${data.rotated.previous_secret_valid_until} each delivery is signed with the previous secret too.`}
        />
      </Page>
    );
  }
  return (
    <ConfirmPage
      title="Rotate webhook secret"
      question={
        <>
          Give the webhook to <strong>{hook.url}</strong> a new signing secret?
        </>
      }
      consequence="The new secret is shown once on the next page. For a grace period (PALISADE_WEBHOOK_SECRET_GRACE_MS) deliveries carry a signature with the previous secret too, so the receiver can switch without losing events; after it only the new secret signs."
      confirmLabel="Rotate secret"
      cancelHref={back}
    />
  );
}
