import { dropSessionCookie } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: { summary: "Sign out from the dashboard", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    if (ctx.auth) await ctx.services.auth.logout(ctx.auth);
    dropSessionCookie(ctx);
    return ctx.redirect("/login");
  },
});
