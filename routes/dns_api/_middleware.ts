/**
 * DNS-API listener: resolves the caller from `Authorization: Bearer <JWT>`,
 * or from a scoped API key sent as `X-API-Key: <key>` or as the bearer
 * (a bearer starting with `pdk_` is a key). Routes decide whether a caller
 * is required; a refused credential's reason becomes the 401 message. A key
 * on a route that takes no keys is refused here, audited (403).
 */
import { UnauthorizedError } from "@/lib/errors.ts";
import { looksLikeApiKey } from "@/lib/dns/api_keys/api_key_service.ts";
import { bearerToken } from "@/server/http/cookies.ts";
import type { Method } from "@/server/http/define.ts";
import { define } from "@/server/listeners/dns_api/context.ts";
import { keyIdentity, keyRoute } from "@/server/listeners/dns_api/key_scope.ts";

type Ctx = Parameters<Parameters<typeof define.middleware>[0]>[0];

async function withKey(ctx: Ctx, key: string): Promise<void> {
  const principal = await ctx.services.dnsApiKeys.verify(key);
  ctx.state.apiKey = principal;
  ctx.state.auth = keyIdentity(principal);
  const method = (ctx.req.method === "HEAD" ? "GET" : ctx.req.method) as Method;
  const entry = ctx.state.listener.routes.find((e) => e.pattern === ctx.route);
  const access = entry?.module.meta?.[method]?.access;
  if (access !== undefined && access !== "public" && !keyRoute(ctx.route)) {
    await ctx.services.dnsApiKeys.refuse(
      principal,
      `call ${method} ${ctx.route}, which takes an administrator's JWT`,
    );
  }
}

export const handler = define.middleware(async (ctx) => {
  const bearer = bearerToken(ctx.req);
  const key = ctx.req.headers.get("x-api-key")?.trim() ??
    (bearer !== undefined && looksLikeApiKey(bearer) ? bearer : undefined);
  try {
    if (key !== undefined) {
      await withKey(ctx, key);
    } else if (bearer) {
      ctx.state.auth = { user: await ctx.services.jwt.verify(bearer), via: "jwt" };
    } else {
      ctx.state.authError =
        "Authentication required: send Authorization: Bearer <JWT> from POST /api/v1/auth/login, or X-API-Key: <key>";
    }
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    ctx.state.authError = err.message;
  }
  return ctx.next();
});
