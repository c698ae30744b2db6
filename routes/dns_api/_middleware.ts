/**
 * DNS-API listener: resolves the caller from `Authorization: Bearer <JWT>`.
 * Routes decide whether a caller is required; a refused token's reason
 * becomes the 401 message.
 */
import { UnauthorizedError } from "@/lib/errors.ts";
import { bearerToken } from "@/server/http/cookies.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const handler = define.middleware(async (ctx) => {
  const token = bearerToken(ctx.req);
  if (token) {
    try {
      const user = await ctx.services.jwt.verify(token);
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
});
