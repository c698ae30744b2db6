import { ReconcilePlanSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Drift between stored and live host state, from one fresh read; changes nothing",
    access: "viewer",
    response: ReconcilePlanSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.tunnels.reconciler.plan(),
});
