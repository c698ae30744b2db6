/**
 * Admin listener: resolves the caller from the `svc_session` cookie or an API
 * bearer token (routes decide whether one is required), refuses cross-site
 * state changes made with the cookie, and sets the dashboard's security headers.
 */
import { ForbiddenError } from "@/lib/errors.ts";
import { bearerToken, getCookie, SESSION_COOKIE } from "@/server/cookies.ts";
import type { Context } from "@/server/define.ts";
import { isSameOrigin, SAFE_METHODS } from "@/server/same_origin.ts";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

export async function handler(ctx: Context): Promise<Response> {
  const auth = ctx.state.services.auth.authenticate({
    cookie: getCookie(ctx.req, SESSION_COOKIE),
    bearer: bearerToken(ctx.req),
  });
  if (auth) ctx.state.auth = auth;
  if (auth?.via === "session" && !SAFE_METHODS.has(ctx.req.method) && !isSameOrigin(ctx.req)) {
    throw new ForbiddenError("Cross-site request refused");
  }
  const res = await ctx.next();
  if ((res.headers.get("content-type") ?? "").startsWith("text/html")) {
    res.headers.set("Content-Security-Policy", CSP);
    res.headers.set("X-Frame-Options", "DENY");
    res.headers.set("Cache-Control", "no-store");
  }
  return res;
}
