import { DeliveriesSchema } from "@/lib/webhooks/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "A webhook's delivery log, one row per attempt, newest first (bounded by PALISADE_WEBHOOK_LOG_KEEP)",
    access: "administrator",
    response: DeliveriesSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ deliveries: await ctx.services.webhooks.deliveries(ctx.params.id) }),
});
