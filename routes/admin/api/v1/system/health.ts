import { z } from "zod";
import { defineHandlers, defineMeta } from "@/server/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Liveness and store health",
    access: "public",
    response: z.object({ status: z.enum(["ok", "error"]), database: z.enum(["ok", "error"]) }),
  },
});

export const handler = defineHandlers(meta, {
  GET(ctx) {
    const health = ctx.state.services.system.health();
    if (health.status === "ok") return health;
    // Non-2xx bodies keep the shared {error, status} shape; `database` says what failed.
    return Response.json(
      { error: "Store is unavailable", status: 503, database: health.database },
      {
        status: 503,
      },
    );
  },
});
