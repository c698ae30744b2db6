/**
 * The per-request context a route or middleware receives (define.ts
 * `Context`): request, parameters, validated input, headers to add, the
 * middleware chain's `next()`, and same-origin redirects.
 */
import type { Authenticated } from "../../lib/auth/auth.ts";
import type { Context, State } from "./define.ts";
import { ResponseHeaders } from "./response_headers.ts";

export class RequestContext implements Context {
  body: unknown = undefined;
  query: unknown = undefined;
  #headers: ResponseHeaders | undefined;
  #url: URL | undefined;
  /** True once the extra headers went into the response at creation. */
  headersApplied = false;
  /** How far the middleware chain has gone: the position last started. */
  chainAt = -1;
  next: () => Promise<Response> = nextOutsideMiddleware;

  constructor(
    readonly req: Request,
    readonly params: Record<string, string>,
    readonly route: string,
    readonly state: State,
    readonly services: unknown,
    readonly info: Deno.ServeHandlerInfo | undefined,
  ) {}

  get auth(): Authenticated | undefined {
    return this.state.auth;
  }

  /** Parsed on first use, like the peer address: many requests read neither. */
  get url(): URL {
    return this.#url ??= new URL(this.req.url);
  }

  get remoteAddr(): string {
    return (this.info?.remoteAddr as Deno.NetAddr | undefined)?.hostname ?? "unknown";
  }

  /** Created on first use: most requests never add a header. */
  get headers(): ResponseHeaders {
    return this.#headers ??= new ResponseHeaders();
  }

  get extraHeaders(): ResponseHeaders | undefined {
    return this.#headers;
  }

  redirect(path: string, status = SEE_OTHER): Response {
    return new Response(null, { status, headers: { Location: sameOriginPath(path, this.url) } });
  }
}

/** A redirect after a form post: the browser follows it with a GET. */
const SEE_OTHER = 303;

/** `next()` of the route itself, which has nothing to call. */
export function nextOutsideMiddleware(): Promise<Response> {
  return Promise.reject(new Error("next() is only for middleware"));
}

/** `next()` once the step it belongs to has run. */
export function nextCalledAgain(): Promise<Response> {
  return Promise.reject(new Error("next() called more than once"));
}

/**
 * `path` when it stays on this origin, else "/": an open redirect would help
 * phishing. Resolving it the way a browser does catches `//host`, `/\host`
 * and control characters that a prefix check lets through.
 */
export function sameOriginPath(path: string, base: URL): string {
  // deno-lint-ignore no-control-regex -- control characters are what this refuses
  if (!path.startsWith("/") || /[\\\x00-\x1f\x7f]/.test(path)) return "/";
  try {
    const target = new URL(path, base);
    // Dot segments resolve away ("/.//evil" is "//evil"): what is returned must not start with "//" either.
    if (target.origin !== base.origin || target.pathname.startsWith("//")) return "/";
    return target.pathname + target.search + target.hash;
  } catch {
    return "/";
  }
}
