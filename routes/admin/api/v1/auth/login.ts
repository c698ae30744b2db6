import { LoginInput, UserInfoSchema } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { clientMeta, setSessionCookie } from "@/server/http/session_cookie.ts";

export const meta = defineMeta({
  POST: {
    summary: "Log in; sets the svc_session cookie and returns the user",
    access: "public",
    body: LoginInput,
    response: UserInfoSchema,
  },
});

export const handler = defineHandlers(meta, {
  async POST(ctx) {
    const { user, cookie } = await ctx.state.services.auth.login(
      ctx.body.username,
      ctx.body.password,
      clientMeta(ctx),
    );
    setSessionCookie(ctx, cookie);
    return user;
  },
});
