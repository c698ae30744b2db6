/** A small self-contained HTML error page for browser-facing paths. */

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Sign-in required",
  403: "Not allowed",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Too large",
  422: "Cannot apply",
  429: "Too many attempts",
  500: "Something went wrong",
};

/** An HTML error response with the status and a client-safe message. */
export function errorPage(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const title = TITLES[status] ?? "Error";
  const body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${
    esc(title)
  } · Palisade</title>
<link rel="stylesheet" href="/static/style.css"></head><body><main class="error-page" id="main">
<h1>${esc(title)}</h1><p>${
    esc(message)
  }</p><p><a href="/">Back to the overview</a></p></main></body></html>`;
  return new Response(body, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      // Errors leave before the listener's middleware adds its headers, so they carry their own.
      "Content-Security-Policy":
        "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
      "X-Frame-Options": "DENY",
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}
