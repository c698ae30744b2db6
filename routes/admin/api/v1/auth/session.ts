import { SessionInfoSchema } from "@/lib/auth/schema.ts";
import { isoTime } from "@/lib/clock.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "The caller's user and credential",
    access: "viewer",
    response: SessionInfoSchema,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const auth = ctx.auth;
    return {
      user: await ctx.services.users.get(auth.user.id),
      auth: auth.via,
      expires_at: auth.expiresAt === undefined ? null : isoTime(auth.expiresAt),
    };
  },
});
