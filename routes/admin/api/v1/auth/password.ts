import { OkSchema, PasswordChangeInput } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { clientMeta, dropSessionCookie, requireSession } from "@/server/http/session_cookie.ts";

export const meta = defineMeta({
  POST: {
    summary: "Change the caller's password; ends every session of the user",
    access: "viewer",
    body: PasswordChangeInput,
    response: OkSchema,
  },
});

export const handler = defineHandlers(meta, {
  async POST(ctx) {
    requireSession(ctx, "Changing the password");
    const { endedSessions } = await ctx.state.services.auth.changePassword(
      ctx.state.auth!.user,
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
