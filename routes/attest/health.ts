import { z } from "zod";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Daemon health",
    access: "public",
    response: z.object({ status: z.literal("healthy") }),
  },
});

export const handler = defineHandlers(meta, {
  GET: () => ({ status: "healthy" as const }),
});
