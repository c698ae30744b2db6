import { z } from "zod";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Operational overview: health, listeners and counts per subsystem",
    access: "viewer",
    response: z.record(z.string(), z.unknown()),
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.system.overview(),
});
