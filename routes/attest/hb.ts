import { HeartbeatRequestSchema, HeartbeatResponseSchema } from "@/lib/attest/schema.ts";
import { parseHeartbeat } from "@/lib/attest/parse_heartbeat.ts";
import { define } from "@/server/listeners/attest/context.ts";
import { KiB } from "@/server/http/request_body.ts";

export const meta = define.meta({
  POST: {
    summary: 'Submit a signed heartbeat; a rejection is the bare {"status":"ok"}',
    access: "public",
    maxBodyBytes: 256 * KiB,
    body: HeartbeatRequestSchema,
    parseBody: parseHeartbeat,
    response: HeartbeatResponseSchema,
  },
});

const REJECTED = { status: "ok" } as const;

export const handler = define.handlers(meta, {
  async POST(ctx) {
    const outcome = await ctx.services.attest.heartbeat(ctx.body, ctx.req.headers);
    return outcome.accepted ? outcome.response : REJECTED;
  },
});
