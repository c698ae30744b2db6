import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors.ts";
import { TwoFactorResetSchema } from "@/lib/auth/two_factor_schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Reset a user's second factors (TOTP, recovery codes, passkeys) and end their sessions; not one's own",
    access: "administrator",
    errors: [ForbiddenError, NotFoundError, ConflictError],
    response: TwoFactorResetSchema,
  },
});

export const handler = define.handlers(meta, {
  POST(ctx) {
    return ctx.services.auth.twoFactorAdmin.reset(ctx.params.id, ctx.auth.user);
  },
});
