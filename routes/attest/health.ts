import { z } from "zod";
import { define } from "@/server/listeners/attest/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Daemon health",
    access: "public",
    response: z.object({ status: z.literal("healthy") }),
  },
});

export const handler = define.handlers(meta, {
  GET: () => ({ status: "healthy" as const }),
});
