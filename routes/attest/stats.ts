import { StatsSchema } from "@/lib/attest/schema.ts";
import { define } from "@/server/listeners/attest/context.ts";

export const meta = define.meta({
  GET: { summary: "Session statistics", access: "public", response: StatsSchema },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.attest.stats(),
});
