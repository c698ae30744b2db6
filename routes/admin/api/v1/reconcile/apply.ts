import { HostError } from "@/lib/errors.ts";
import { ReconcileResultSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Converge every drifting interface (diff only: unchanged peers keep their sessions), then read again to verify",
    access: "operator",
    errors: [HostError],
    response: ReconcileResultSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.reconciler.apply(ctx.auth.user.username),
});
