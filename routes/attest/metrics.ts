import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Prometheus metrics: session gauges, accepted heartbeats, rejections by reason",
    access: "public",
    produces: "text/plain; version=0.0.4",
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) =>
    new Response(ctx.state.services.attest.metrics(), {
      headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" },
    }),
});
