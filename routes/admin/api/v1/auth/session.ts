import { SessionInfoSchema } from "@/lib/auth/schema.ts";
import { isoTime } from "@/lib/clock.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "The caller's user and credential",
    access: "viewer",
    response: SessionInfoSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET(ctx) {
    const auth = ctx.state.auth!;
    return {
      user: ctx.state.services.users.get(auth.user.id),
      auth: auth.via,
      expires_at: auth.expiresAt === undefined ? null : isoTime(auth.expiresAt),
    };
  },
});
