import { StatsSchema } from "@/lib/attest/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: { summary: "Session statistics", access: "public", response: StatsSchema },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.attest.stats(),
});
