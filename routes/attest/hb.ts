import { HeartbeatRequestSchema, HeartbeatResponseSchema } from "@/lib/attest/schema.ts";
import { defineHandlers, defineMeta } from "@/server/define.ts";

export const meta = defineMeta({
  POST: {
    summary: 'Submit a signed heartbeat; a rejection is the bare {"status":"ok"}',
    access: "public",
    body: HeartbeatRequestSchema,
    response: HeartbeatResponseSchema,
  },
});

const REJECTED = { status: "ok" } as const;

export const handler = defineHandlers(meta, {
  async POST(ctx) {
    const outcome = await ctx.state.services.attest.heartbeat(ctx.body, ctx.rawJson);
    return outcome.accepted ? outcome.response : REJECTED;
  },
});
