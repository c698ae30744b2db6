import { z } from "zod";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
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

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.system.version(),
});
