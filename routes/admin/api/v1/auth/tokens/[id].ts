import { OkSchema } from "@/lib/auth/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  DELETE: { summary: "Revoke an API token", access: "viewer", response: OkSchema },
});

export const handler = define.handlers(meta, {
  async DELETE(ctx) {
    await ctx.services.auth.tokens.revoke(ctx.params.id, ctx.auth.user);
    return { success: true, message: "Token revoked" };
  },
});
