import { RotatedSecretSchema } from "@/lib/webhooks/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Replace a webhook's signing secret: the new one is shown in this response only; until previous_secret_valid_until deliveries are signed with the previous one too (docs/webhooks.md)",
    access: "administrator",
    response: RotatedSecretSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.webhooks.rotateSecret(ctx.auth.user.username, ctx.params.id),
});
