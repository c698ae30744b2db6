import { OkSchema } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  DELETE: { summary: "Revoke an API token", access: "viewer", response: OkSchema },
});

export const handler = defineHandlers(meta, {
  DELETE(ctx) {
    ctx.state.services.auth.tokens.revoke(ctx.params.id, ctx.state.auth!.user);
    return { success: true, message: "Token revoked" };
  },
});
