import { webhookInputSchema, WebhookSchema } from "@/lib/webhooks/schemas.ts";
import { member } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(member({
  member: WebhookSchema,
  read: { summary: "One webhook subscription, without its secret", access: "administrator" },
  update: {
    summary: "Change a webhook's URL, event types and enabled flag (its secret stays)",
    access: "administrator",
    body: webhookInputSchema,
  },
  remove: { summary: "Delete a webhook and its delivery log", access: "administrator" },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.webhooks.get(ctx.params.id),
  PUT: (ctx) => ctx.services.webhooks.update(ctx.auth.user.username, ctx.params.id, ctx.body),
  DELETE: (ctx) => ctx.services.webhooks.delete(ctx.auth.user.username, ctx.params.id),
});
