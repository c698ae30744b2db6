/**
 * Admin listener: resolves the caller from the `svc_session` cookie or an API
 * bearer token (routes decide whether one is required), refuses cross-site
 * state changes made with the cookie, sets the dashboard's security headers,
 * and gzips dashboard pages and assets (a page of 1,000 peers is ~650 KB of
 * HTML, ~60 KB gzipped).
 */
import { ForbiddenError } from "@/lib/errors.ts";
import { bearerToken, getCookie, SESSION_COOKIE } from "@/server/http/cookies.ts";
import { gzip } from "@/server/http/compress.ts";
import { isSameOrigin, SAFE_METHODS } from "@/server/http/same_origin.ts";
import { twoFactorGate } from "@/server/http/two_factor_gate.ts";
import { define } from "@/server/listeners/admin/context.ts";

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

/** Text the dashboard sends that compresses well; API JSON is left as the API tests expect it. */
export const handler = define.middleware(async (ctx) => {
  const auth = await ctx.services.auth.authenticate({
    cookie: getCookie(ctx.req, SESSION_COOKIE),
    bearer: bearerToken(ctx.req),
  });
  if (auth) ctx.state.auth = auth;
  // Any state change a browser could be tricked into sending from another site is
  // refused: with a session, and also without one (login CSRF). Bearer-token calls
  // are exempt: a browser never attaches those on its own.
  if (auth?.via !== "token" && !SAFE_METHODS.has(ctx.req.method) && !isSameOrigin(ctx.req)) {
    throw new ForbiddenError("Cross-site request refused");
  }
  const gated = await twoFactorGate(
    auth ?? undefined,
    ctx.url.pathname,
    ctx.services.auth.twoFactor,
    (path) => ctx.redirect(path),
  );
  const res = gated ?? await ctx.next();
  if ((res.headers.get("content-type") ?? "").startsWith("text/html")) {
    res.headers.set("Content-Security-Policy", CSP);
    res.headers.set("X-Frame-Options", "DENY");
    res.headers.set("Cache-Control", "no-store");
  }
  return ctx.url.pathname.startsWith("/api/") ? res : gzip(ctx.req, res);
});
