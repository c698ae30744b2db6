import { ConflictError } from "@/lib/errors.ts";
import { EnrolmentSchema } from "@/lib/auth/two_factor_schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Start two-factor enrolment: a new TOTP secret, its otpauth:// URI and QR code (shown once)",
    access: "viewer",
    errors: [ConflictError],
    response: EnrolmentSchema,
  },
});

export const handler = define.handlers(meta, {
  POST(ctx) {
    return ctx.services.auth.twoFactor.begin(ctx.auth.user);
  },
});
