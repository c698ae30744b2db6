import { OkSchema } from "@/lib/auth/schema.ts";
import { dropSessionCookie } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: { summary: "End the current session", access: "viewer", response: OkSchema },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    await ctx.services.auth.logout(ctx.auth);
    dropSessionCookie(ctx);
    return { success: true, message: "Logged out" };
  },
});
