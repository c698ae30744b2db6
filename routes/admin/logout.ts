import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { dropSessionCookie } from "@/server/http/session_cookie.ts";

export const meta = defineMeta({
  POST: { summary: "Sign out from the dashboard", access: "public", hidden: true },
});

export const handler = defineHandlers(meta, {
  POST(ctx) {
    if (ctx.state.auth) ctx.state.services.auth.logout(ctx.state.auth);
    dropSessionCookie(ctx);
    return ctx.redirect("/login");
  },
});
