import { HeartbeatRequestSchema, HeartbeatResponseSchema } from "@/lib/attest/schema.ts";
import { parseHeartbeat } from "@/lib/attest/parse_heartbeat.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary: 'Submit a signed heartbeat; a rejection is the bare {"status":"ok"}',
    access: "public",
    body: HeartbeatRequestSchema,
    parseBody: parseHeartbeat,
    response: HeartbeatResponseSchema,
  },
});

const REJECTED = { status: "ok" } as const;

export const handler = defineHandlers(meta, {
  async POST(ctx) {
    const outcome = await ctx.state.services.attest.heartbeat(ctx.body);
    return outcome.accepted ? outcome.response : REJECTED;
  },
});
