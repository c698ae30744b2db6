import { ConflictError, UnprocessableError } from "@/lib/errors.ts";
import { CodeInput, RecoveryCodesSchema } from "@/lib/auth/two_factor_schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Confirm enrolment with a first code; turns two-factor sign-in on and returns the ten recovery codes once",
    access: "viewer",
    errors: [ConflictError, UnprocessableError],
    body: CodeInput,
    response: RecoveryCodesSchema,
  },
});

export const handler = define.handlers(meta, {
  POST(ctx) {
    return ctx.services.auth.twoFactor.confirm(ctx.auth.user, ctx.body.code);
  },
});
