/** Setting and clearing the session cookie from a route. */
import { SESSION_MAX_MS } from "../../lib/auth/sessions.ts";
import { ForbiddenError } from "../../lib/errors.ts";
import type { ClientMeta } from "../../lib/auth/auth.ts";
import { type ProxyAwareContext, requestClientAddress } from "./client_address.ts";
import { clearSessionCookie, isHttps, sessionCookie } from "./cookies.ts";
import type { Config } from "../../lib/config/config.ts";
import type { Context } from "./define.ts";

/** A context on a listener that sets session cookies: it knows whether they must be `Secure`. */
type CookieContext = Context<unknown, unknown, { config: Pick<Config, "secureCookies"> }>;

function secure(ctx: CookieContext): boolean {
  return isHttps(ctx.req, ctx.url, ctx.services.config.secureCookies);
}

/** Adds the `Set-Cookie` of a new session to the response. */
export function setSessionCookie(ctx: CookieContext, value: string): void {
  ctx.headers.append("Set-Cookie", sessionCookie(value, SESSION_MAX_MS / 1000, secure(ctx)));
}

/** Adds the `Set-Cookie` that removes the session cookie. */
export function dropSessionCookie(ctx: CookieContext): void {
  ctx.headers.append("Set-Cookie", clearSessionCookie(secure(ctx)));
}

/** The caller's address (trusted proxies honoured) and user agent, for the login limiter and audit. */
export function clientMeta(ctx: ProxyAwareContext): ClientMeta {
  return {
    address: requestClientAddress(ctx),
    userAgent: ctx.req.headers.get("user-agent") ?? "",
  };
}

/** Refuses (403) an action that needs a signed-in session rather than an API token. */
export function requireSession(ctx: Context, action: string): void {
  if (ctx.auth?.via !== "session") {
    throw new ForbiddenError(`${action} needs a signed-in session, not an API token`);
  }
}
