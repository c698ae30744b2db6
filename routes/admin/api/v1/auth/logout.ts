import { OkSchema } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/define.ts";
import { dropSessionCookie } from "@/server/session_cookie.ts";

export const meta = defineMeta({
  POST: { summary: "End the current session", access: "viewer", response: OkSchema },
});

export const handler = defineHandlers(meta, {
  POST(ctx) {
    ctx.state.services.auth.logout(ctx.state.auth!);
    dropSessionCookie(ctx);
    return { success: true, message: "Logged out" };
  },
});
