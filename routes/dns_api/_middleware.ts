/**
 * DNS-API listener: resolves the caller from `Authorization: Bearer <JWT>`.
 * Routes decide whether a caller is required; a refused token's reason
 * becomes the 401 message.
 */
import { UnauthorizedError } from "@/lib/errors.ts";
import { bearerToken } from "@/server/http/cookies.ts";
import type { Context } from "@/server/http/define.ts";

export async function handler(ctx: Context): Promise<Response> {
  const token = bearerToken(ctx.req);
  if (token) {
    try {
      const user = await ctx.state.services.jwt.verify(token);
      ctx.state.auth = { user, via: "jwt" };
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
      ctx.state.authError = err.message;
    }
  } else {
    ctx.state.authError =
      "Authentication required: send Authorization: Bearer <JWT> from POST /api/v1/auth/login";
  }
  return ctx.next();
}
