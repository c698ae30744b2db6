/**
 * Cross-site request protection beyond SameSite cookies. A state-changing
 * request authenticated by the session cookie must come from our own origin:
 * browsers send `Origin` (and `Sec-Fetch-Site`) on every such request, so a
 * mismatch is refused. Requests carrying neither header come from non-browser
 * clients, which cannot be driven cross-site, and pass.
 */
export function isSameOrigin(req: Request): boolean {
  const host = req.headers.get("host");
  const origin = req.headers.get("origin");
  if (origin !== null) {
    if (origin === "null" || !host) return false;
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  const site = req.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
