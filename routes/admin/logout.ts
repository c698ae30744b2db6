import { LOGOUT_COOKIE } from "@/lib/auth/oidc/logout.ts";
import { getCookie } from "@/server/http/cookies.ts";
import { dropSessionCookie } from "@/server/http/session_cookie.ts";
import { externalRedirect, postLogoutUri, setLogoutCookie } from "@/server/http/sso.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: { summary: "Sign out from the dashboard", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    // A single sign-on session goes on to sign out at its provider (docs/sso.md).
    const atProvider = ctx.auth
      ? await ctx.services.sso.logout.target(
        getCookie(ctx.req, LOGOUT_COOKIE),
        ctx.auth.sessionId,
        postLogoutUri(ctx),
      )
      : null;
    if (ctx.auth) await ctx.services.auth.logout(ctx.auth);
    dropSessionCookie(ctx);
    setLogoutCookie(ctx, null);
    return atProvider ? externalRedirect(atProvider) : ctx.redirect("/login");
  },
});
