/**
 * The HTTP side of single sign-on (docs/sso.md): the redirect to the
 * identity provider, the pending sign-in cookie, and the callback URL the
 * provider must know.
 */
import { LOGOUT_COOKIE } from "../../lib/auth/oidc/logout.ts";
import { PENDING_COOKIE, PENDING_TTL_MS } from "../../lib/auth/oidc/pending.ts";
import { SESSION_MAX_MS } from "../../lib/auth/sessions.ts";
import type { Config } from "../../lib/config/config.ts";
import { isHttps } from "./cookies.ts";
import type { Context } from "./define.ts";

type SsoContext = Context<unknown, unknown, { config: Pick<Config, "secureCookies"> }>;

/** The callback path on the admin listener. */
export const CALLBACK_PATH = "/sso/callback";
/** The dashboard's sign-out form posts here. */
export const LOGOUT_PATH = "/logout";

const SEE_OTHER = 303;

/** A 303 to the identity provider: the one redirect that leaves this origin. */
export function externalRedirect(location: string): Response {
  return new Response(null, { status: SEE_OTHER, headers: { Location: location } });
}

/** The redirect URI of this listener, as the browser reaches it. */
export function redirectUri(ctx: SsoContext): string {
  return `${origin(ctx)}${CALLBACK_PATH}`;
}

/** Where the provider sends the browser after an RP-initiated logout: the sign-in page. */
export function postLogoutUri(ctx: SsoContext): string {
  return `${origin(ctx)}/login`;
}

function origin(ctx: SsoContext): string {
  const scheme = isHttps(ctx.req, ctx.url, ctx.services.config.secureCookies) ? "https" : "http";
  return `${scheme}://${ctx.url.host}`;
}

/**
 * Sets (or, with null, removes) the sealed RP-initiated logout cookie
 * (lib/auth/oidc/logout.ts): sent only to the sign-out form's POST, which
 * is same-site, so SameSite=Strict; it lives as long as a session can.
 */
export function setLogoutCookie(ctx: SsoContext, value: string | null): void {
  const secure = isHttps(ctx.req, ctx.url, ctx.services.config.secureCookies);
  ctx.headers.append(
    "Set-Cookie",
    [
      `${LOGOUT_COOKIE}=${value ?? ""}`,
      "HttpOnly",
      "SameSite=Strict",
      `Path=${LOGOUT_PATH}`,
      `Max-Age=${value === null ? 0 : SESSION_MAX_MS / 1000}`,
      ...(secure ? ["Secure"] : []),
    ].join("; "),
  );
}

/**
 * Sets (or, with null, removes) the pending sign-in cookie. SameSite=Lax:
 * the provider sends the browser back with a cross-site top-level GET.
 */
export function setPendingCookie(ctx: SsoContext, value: string | null): void {
  const secure = isHttps(ctx.req, ctx.url, ctx.services.config.secureCookies);
  ctx.headers.append(
    "Set-Cookie",
    [
      `${PENDING_COOKIE}=${value ?? ""}`,
      "HttpOnly",
      "SameSite=Lax",
      `Path=${CALLBACK_PATH}`,
      `Max-Age=${value === null ? 0 : PENDING_TTL_MS / 1000}`,
      ...(secure ? ["Secure"] : []),
    ].join("; "),
  );
}
