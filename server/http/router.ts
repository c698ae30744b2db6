/**
 * Builds the Hono app of one listener from its route table: each route runs
 * its middleware chain, then `invoke()`; any error becomes `{error, status}`
 * JSON or, for pages, an HTML error page, through the one mapping in
 * errors.ts.
 */
import { Hono } from "hono";
import type { Logger } from "../../lib/log/log.ts";
import { nextCalledAgain, nextOutsideMiddleware, RequestContext } from "./context.ts";
import type { Method, RouteModule } from "./define.ts";
import { errorJson, mapError } from "./errors.ts";
import { errorPage } from "./error_page.ts";
import { invoke } from "./invoke.ts";
import { BODY_LIMIT, checkDeclaredLength } from "./request_body.ts";
import { withHeaders } from "./respond.ts";
import { resolveRoutes, type RouteEntry } from "./route_table.ts";

export type { RouteEntry } from "./route_table.ts";

export interface ListenerOptions {
  name: string;
  files: Record<string, RouteModule>;
  /** What the listener's routes may use (its `define`'s type), and its log. */
  services: { log: Logger };
  /** Paths answered with HTML errors (pages); everything else gets JSON. */
  htmlPaths?: (path: string) => boolean;
  /** Where pages send a visitor without a session. */
  loginPath?: string;
}

/** Runs one matched request: the route's chain and the route, errors mapped. */
export type Dispatch = (
  entry: RouteEntry,
  req: Request,
  params: Record<string, string>,
  info: Deno.ServeHandlerInfo | undefined,
) => Promise<Response>;

export interface ListenerApp {
  app: Hono;
  routes: RouteEntry[];
  dispatch: Dispatch;
  /** Entry point for Deno.serve. */
  fetch: (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
}

const NOT_FOUND = 404;
const INTERNAL = 500;

/**
 * Runs position `idx` of a route's chain: its middlewares in order, then the
 * route. `ctx.next` is this function bound to the following position rather
 * than a closure made per request: a closure that was called kept the
 * request, its body and the context reachable for longer, and more of every
 * request reached V8's old generation.
 */
async function step(
  ctx: RequestContext,
  entry: RouteEntry,
  loginPath: string,
  idx: number,
): Promise<Response> {
  if (idx <= ctx.chainAt) throw new Error("next() called more than once");
  ctx.chainAt = idx;
  if (idx === entry.middlewares.length) {
    // The route itself has no next; once it has answered, any call is a repeat.
    ctx.next = nextOutsideMiddleware;
    try {
      return await invoke(entry, ctx, loginPath);
    } finally {
      ctx.next = nextCalledAgain;
    }
  }
  ctx.next = step.bind(null, ctx, entry, loginPath, idx + 1);
  return await entry.middlewares[idx](ctx);
}

/** The body limit the route declares for the method, or the default. */
function bodyLimit(entry: RouteEntry, method: string): number {
  return entry.module.meta?.[method as Method]?.maxBodyBytes ?? BODY_LIMIT;
}

/** Builds the Hono app of one listener; returns it with its resolved routes. */
export function buildListenerApp(opts: ListenerOptions): ListenerApp {
  const routes = resolveRoutes(opts.files);
  const log: Logger = opts.services.log.child({ listener: opts.name });
  const htmlPaths = opts.htmlPaths ?? (() => false);
  const loginPath = opts.loginPath ?? "/login";
  const listener = { name: opts.name, routes };

  const fail = (ctx: RequestContext, err: unknown, html: boolean): Response => {
    const mapped = mapError(err);
    if (mapped.unexpected) {
      const detail = (err as { detail?: string })?.detail;
      log.error("request failed", { method: ctx.req.method, path: ctx.url.pathname, err, detail });
    }
    const res = html
      ? errorPage(mapped.status, mapped.message, mapped.headers)
      : errorJson(mapped.status, mapped.message, mapped.headers, mapped.body);
    return withHeaders(res, ctx.extraHeaders);
  };

  const dispatch: Dispatch = async (entry, req, params, info) => {
    const state = { listener };
    const ctx = new RequestContext(req, params, entry.pattern, state, opts.services, info);
    try {
      checkDeclaredLength(req, bodyLimit(entry, req.method));
      const res = await step(ctx, entry, loginPath, 0);
      return ctx.headersApplied ? res : withHeaders(res, ctx.extraHeaders);
    } catch (err) {
      return fail(ctx, err, entry.isPage || htmlPaths(ctx.url.pathname));
    }
  };

  const app = new Hono({ strict: false });
  for (const entry of routes) {
    app.all(entry.pattern, (c) =>
      dispatch(
        entry,
        c.req.raw,
        c.req.param() as Record<string, string>,
        c.env as Deno.ServeHandlerInfo | undefined,
      ));
  }
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const message = `No route for ${c.req.method} ${path}`;
    const res = htmlPaths(path)
      ? errorPage(NOT_FOUND, "Page not found")
      : errorJson(NOT_FOUND, message);
    return withHeaders(res, undefined);
  });
  app.onError((err) => {
    log.error("unhandled error", { err });
    return errorJson(INTERNAL, "Internal server error");
  });
  return { app, routes, dispatch, fetch: (req, info) => app.fetch(req, info) };
}
