import { z } from "zod";
import { UnavailableError } from "@/lib/errors.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Liveness and store health",
    access: "public",
    errors: [UnavailableError],
    response: z.object({ status: z.enum(["ok", "error"]), database: z.enum(["ok", "error"]) }),
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const health = await ctx.services.system.health();
    if (health.status === "ok") return health;
    // The shared {error, status} body; `database` says what failed. A probe retries on its own.
    throw new UnavailableError("Store is unavailable", null, { database: health.database });
  },
});
