import { z } from "zod";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Operational overview: health, listeners and counts per subsystem",
    access: "viewer",
    response: z.record(z.string(), z.unknown()),
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.system.overview(),
});
