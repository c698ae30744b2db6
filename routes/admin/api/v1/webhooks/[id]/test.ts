import { DeliverySchema } from "@/lib/webhooks/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Send a webhook.test event now, enabled or not: answers the first attempt's log row (retries follow on failure)",
    access: "administrator",
    response: DeliverySchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.webhooks.sendTest(ctx.auth.user.username, ctx.params.id),
});
