import { ReconcileResultSchema } from "@/lib/tunnel/response_schemas.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary:
      "Converge every drifting interface (diff only: unchanged peers keep their sessions), then read again to verify",
    access: "operator",
    response: ReconcileResultSchema,
  },
});

export const handler = defineHandlers(meta, {
  POST: (ctx) => ctx.state.services.tunnels.reconciler.apply(ctx.state.auth!.user.username),
});
