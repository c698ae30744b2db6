/** Minimal cookie parsing and the `svc_session` cookie's attributes. */

export const SESSION_COOKIE = "svc_session";

/** The value of cookie `name` in the request, or undefined. */
export function getCookie(req: Request, name: string): string | undefined {
  const header = req.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Whether the client reached us over HTTPS (directly or through a proxy that says so). */
export function isHttps(req: Request, url: URL, forceSecure: boolean): boolean {
  return forceSecure || url.protocol === "https:" ||
    req.headers.get("x-forwarded-proto") === "https";
}

/** `Set-Cookie` for a session: HttpOnly; SameSite=Strict; Path=/ and Secure behind HTTPS. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    "HttpOnly",
    "SameSite=Strict",
    "Path=/",
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** `Set-Cookie` that removes the session cookie. */
export function clearSessionCookie(secure: boolean): string {
  return sessionCookie("", 0, secure);
}

/** The token of an `Authorization: Bearer` header, or undefined. */
export function bearerToken(req: Request): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return m?.[1];
}
