import { ConflictError, ForbiddenError, UnprocessableError } from "@/lib/errors.ts";
import { CodeInput, RecoveryCodesSchema } from "@/lib/auth/two_factor_schema.ts";
import { requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Confirm enrolment with a first code; turns two-factor sign-in on and returns the ten recovery codes once",
    access: "viewer",
    errors: [ConflictError, ForbiddenError, UnprocessableError],
    body: CodeInput,
    response: RecoveryCodesSchema,
  },
});

export const handler = define.handlers(meta, {
  POST(ctx) {
    // A leaked token must not change its user's second factors (docs/api.md).
    requireSession(ctx, "Turning two-factor sign-in on");
    return ctx.services.auth.twoFactor.confirm(ctx.auth.user, ctx.body.code);
  },
});
