import { ConflictError, ForbiddenError } from "@/lib/errors.ts";
import { EnrolmentSchema } from "@/lib/auth/two_factor_schema.ts";
import { requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Start two-factor enrolment: a new TOTP secret, its otpauth:// URI and QR code (shown once)",
    access: "viewer",
    errors: [ConflictError, ForbiddenError],
    response: EnrolmentSchema,
  },
});

export const handler = define.handlers(meta, {
  POST(ctx) {
    // A leaked token must not change its user's second factors (docs/api.md).
    requireSession(ctx, "Starting two-factor enrolment");
    return ctx.services.auth.twoFactor.begin(ctx.auth.user);
  },
});
