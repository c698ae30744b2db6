import {
  webhookInputSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "@/lib/webhooks/schemas.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(collection({
  key: "webhooks",
  item: WebhookSchema,
  list: {
    summary: "Webhook subscriptions, newest first, without their secrets",
    access: "administrator",
  },
  create: {
    summary:
      "Subscribe a URL to event types: answers the signing secret, shown only here; 400 for a refused URL",
    access: "administrator",
    body: webhookInputSchema,
    response: WebhookWithSecretSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ webhooks: await ctx.services.webhooks.list() }),
  POST: (ctx) => ctx.services.webhooks.create(ctx.auth.user.username, ctx.body),
});
