import { define } from "@/server/listeners/attest/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Prometheus metrics: session gauges, accepted heartbeats, rejections by reason",
    access: "public",
    produces: "text/plain; version=0.0.4",
  },
});

export const handler = define.handlers(meta, {
  GET: async (ctx) =>
    new Response(await ctx.services.attest.metrics(), {
      headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" },
    }),
});
