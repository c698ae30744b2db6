/**
 * How answers are made: every response carries the default security
 * headers and whatever the route's context added, and a data result becomes
 * JSON created with all its headers at once (Deno serves a response whose
 * headers are not changed after creation on its fast path).
 */
import type { ResponseHeaders } from "./response_headers.ts";
import { Status } from "./status.ts";

/** Headers every response carries. */
export const DEFAULT_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/** API answers are never cached by intermediaries or browsers. */
const JSON_HEADERS: [string, string][] = [
  ["Content-Type", "application/json"],
  ["Cache-Control", "no-store"],
  ...Object.entries(DEFAULT_HEADERS),
];

/** A route's data result as JSON, with the context's headers and the defaults. */
export function jsonResponse(
  result: unknown,
  status: number,
  extra: ResponseHeaders | undefined,
): Response {
  const headers = extra?.over(JSON_HEADERS) ?? JSON_HEADERS;
  return new Response(JSON.stringify(result), { status, headers });
}

/** An answer without a body, e.g. a data result of null. */
export function emptyResponse(headers?: HeadersInit): Response {
  return new Response(null, { status: Status.NoContent, headers });
}

/** Adds the context's headers and the defaults to a response made elsewhere. */
export function withHeaders(res: Response, extra: ResponseHeaders | undefined): Response {
  let out = res;
  const set = (k: string, v: string, append: boolean) => {
    try {
      append ? out.headers.append(k, v) : out.headers.set(k, v);
    } catch {
      // Immutable headers (e.g. Response.redirect): copy the response once.
      out = new Response(out.body, out);
      append ? out.headers.append(k, v) : out.headers.set(k, v);
    }
  };
  if (extra) {
    const seen = new Set<string>();
    for (const [k, v] of extra.pairs) {
      // The first value of a name replaces the response's; later ones (and every Set-Cookie) add.
      const lower = k.toLowerCase();
      set(k, v, lower === "set-cookie" || seen.has(lower));
      seen.add(lower);
    }
    for (const [k, v] of extra.defaults) if (!out.headers.has(k)) set(k, v, false);
  }
  for (const [k, v] of Object.entries(DEFAULT_HEADERS)) if (!out.headers.has(k)) set(k, v, false);
  return out;
}
