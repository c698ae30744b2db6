import { ConflictError, ForbiddenError, UnprocessableError } from "@/lib/errors.ts";
import { CodeInput, RecoveryCodesSchema } from "@/lib/auth/two_factor_schema.ts";
import { requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Ten new recovery codes, returned once, after a current TOTP code; the earlier codes stop working",
    access: "viewer",
    errors: [ConflictError, ForbiddenError, UnprocessableError],
    body: CodeInput,
    response: RecoveryCodesSchema,
  },
});

export const handler = define.handlers(meta, {
  POST(ctx) {
    // A leaked token must not change its user's second factors (docs/api.md).
    requireSession(ctx, "Renewing recovery codes");
    return ctx.services.auth.twoFactor.regenerateRecoveryCodes(ctx.auth.user, ctx.body.code);
  },
});
