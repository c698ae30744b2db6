import { RateLimitError } from "@/lib/errors.ts";
import { OkSchema, PasswordChangeInput } from "@/lib/auth/schema.ts";
import { clientMeta, dropSessionCookie, requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Change the caller's password; ends every session of the user",
    access: "viewer",
    errors: [RateLimitError],
    body: PasswordChangeInput,
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    requireSession(ctx, "Changing the password");
    const { endedSessions } = await ctx.services.auth.changePassword(
      ctx.auth.user,
      ctx.body.current_password,
      ctx.body.new_password,
      clientMeta(ctx),
    );
    dropSessionCookie(ctx);
    return {
      success: true,
      message: `Password changed; ${endedSessions} session(s) ended, log in again`,
    };
  },
});
