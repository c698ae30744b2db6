/**
 * A dashboard session of a user whose role requires two-factor sign-in
 * (setting `auth.two_factor_roles`) but who has not turned it on reaches
 * only what enrolment needs: the Security page, the two-factor API, sign-out
 * and its own session. Pages redirect to the Security page; anything else is
 * refused. API tokens are not gated: they are issued and revoked separately.
 */
import type { Authenticated } from "@/lib/auth/auth.ts";
import type { TwoFactorService } from "@/lib/auth/two_factor.ts";
import { ForbiddenError } from "@/lib/errors.ts";

export const SECURITY_PAGE = "/account/security";

const OPEN = new Set([
  SECURITY_PAGE,
  "/login",
  "/logout",
  "/api/v1/auth/logout",
  "/api/v1/auth/session",
]);

/** True for the paths a user who must still enrol may reach. */
export function enrolmentPath(path: string): boolean {
  return OPEN.has(path) || path.startsWith("/api/v1/auth/two-factor") ||
    path.startsWith("/static/");
}

/**
 * Null when the request may go on; else the redirect for a page, or throws
 * ForbiddenError for the API.
 */
export async function twoFactorGate(
  auth: Authenticated | undefined,
  path: string,
  twoFactor: TwoFactorService,
  redirect: (path: string) => Response,
): Promise<Response | null> {
  if (auth?.via !== "session" || enrolmentPath(path)) return null;
  if (!(await twoFactor.enrolmentRequired(auth.user))) return null;
  if (!path.startsWith("/api/")) return redirect(SECURITY_PAGE);
  throw new ForbiddenError(
    `Two-factor sign-in is required for the "${auth.user.role}" role; turn it on first`,
    { code: "two_factor_enrolment_required" },
  );
}
