import { ForbiddenError, RateLimitError, UnauthorizedError } from "@/lib/errors.ts";
import { LoginInput, UserInfoSchema } from "@/lib/auth/schema.ts";
import { clientMeta, setSessionCookie } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { LOGIN_BODY_LIMIT } from "@/server/http/request_body.ts";

export const meta = define.meta({
  POST: {
    summary: "Log in; sets the svc_session cookie and returns the user",
    access: "public",
    errors: [UnauthorizedError, ForbiddenError, RateLimitError],
    maxBodyBytes: LOGIN_BODY_LIMIT,
    body: LoginInput,
    response: UserInfoSchema,
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    const { user, cookie } = await ctx.services.auth.login(
      ctx.body.username,
      ctx.body.password,
      clientMeta(ctx),
      { totpCode: ctx.body.totp_code },
    );
    setSessionCookie(ctx, cookie);
    return user;
  },
});
