import { HostError } from "@/lib/errors.ts";
import { ReconcilePlanSchema } from "@/lib/tunnel/response_schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Drift between stored and live host state, from one fresh read; changes nothing",
    access: "viewer",
    errors: [HostError],
    response: ReconcilePlanSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.reconciler.plan(),
});
