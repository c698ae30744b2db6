import { OkSchema } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { dropSessionCookie } from "@/server/http/session_cookie.ts";

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
