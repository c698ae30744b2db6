import { z } from "zod";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Version and build information",
    access: "public",
    response: z.object({
      version: z.string(),
      commit: z.string(),
      deno: z.string(),
      v8: z.string(),
      typescript: z.string(),
    }),
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.system.version(),
});
