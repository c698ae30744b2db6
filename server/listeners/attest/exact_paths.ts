/**
 * The attestation listener's front door: routes without parameters (among
 * them the hottest, `/hb` and `/init`) are found by their exact path in a
 * map, from a path read off the URL without the URL parser; everything else
 * goes through the listener's general router.
 */
import type { ListenerApp } from "../../http/router.ts";
import type { RouteEntry } from "../../http/route_table.ts";

/** `app.fetch` with exact paths answered first. */
export function exactPathFetch(
  app: ListenerApp,
): (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  const exact = new Map<string, RouteEntry>();
  for (const entry of app.routes) {
    if (!entry.pattern.includes(":")) exact.set(entry.pattern, entry);
  }
  return (req, info) => {
    let path = requestPath(req.url);
    // The general router is not strict about a trailing slash either.
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    const entry = exact.get(path);
    return entry ? app.dispatch(entry, req, {}, info) : app.fetch(req, info);
  };
}

/**
 * The path of an absolute request URL as `new URL(url).pathname` gives it, or
 * "" when it needs the full parser (percent-encoding, dot segments,
 * backslashes): that cannot match an exact route, so the router takes the
 * request.
 */
export function requestPath(url: string): string {
  const authority = url.indexOf("//");
  if (authority < 0) return "";
  const start = url.indexOf("/", authority + 2);
  if (start < 0) return "/";
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
    // Percent-escapes, a segment starting with a dot, backslashes and anything
    // outside printable ASCII: the URL parser normalizes those.
    if (c === 37 || c === 92 || c <= 32 || c >= 127) return "";
    if (c === 46 && url.charCodeAt(i - 1) === 47) return "";
  }
  return url.slice(start, end);
}
