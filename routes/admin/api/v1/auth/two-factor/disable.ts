import { ForbiddenError, UnprocessableError } from "@/lib/errors.ts";
import { OkSchema } from "@/lib/auth/schema.ts";
import { CodeInput } from "@/lib/auth/two_factor_schema.ts";
import { requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary: "Turn two-factor sign-in off; takes a current code or a recovery code",
    access: "viewer",
    errors: [ForbiddenError, UnprocessableError],
    body: CodeInput,
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    // A leaked token must not change its user's second factors (docs/api.md).
    requireSession(ctx, "Turning two-factor sign-in off");
    await ctx.services.auth.twoFactor.disable(ctx.auth.user, ctx.body.code);
    return { success: true, message: "Two-factor sign-in is off" };
  },
});
