import { TwoFactorStatusSchema } from "@/lib/auth/two_factor_schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "The caller's two-factor sign-in: on, waiting for a first code, recovery codes left",
    access: "viewer",
    response: TwoFactorStatusSchema,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const twoFactor = ctx.services.auth.twoFactor;
    const status = await twoFactor.status(ctx.auth.user.id);
    return { ...status, required: await twoFactor.requiredFor(ctx.auth.user) };
  },
});
