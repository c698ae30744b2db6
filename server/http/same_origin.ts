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
      // An origin is scheme, host and port (RFC 6454): https://h:8000 is not http://h:8000.
      const o = new URL(origin);
      return o.host === host && o.protocol === requestScheme(req);
    } catch {
      return false;
    }
  }
  const site = req.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}

/**
 * The scheme the browser used: the listener's own, or the one a
 * TLS-terminating proxy names in X-Forwarded-Proto. A cross-site page cannot
 * add that header to a request without a CORS preflight, which this
 * listener never grants, so trusting it here lets nothing cross-site in.
 */
export function requestScheme(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-proto");
  if (forwarded === "https" || forwarded === "http") return `${forwarded}:`;
  return new URL(req.url).protocol;
}

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
