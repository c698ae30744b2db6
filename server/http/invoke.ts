/**
 * Runs a route once its middlewares let the request through: the method's
 * `meta` decides who may call it (`access`) and what its query and body must
 * be; the handler's result becomes a page, JSON or an empty answer.
 */
import type { ComponentType } from "preact";
import { roleAtLeast } from "../../lib/auth/roles.ts";
import { ForbiddenError, UnauthorizedError, ValidationError } from "../../lib/errors.ts";
import type { RequestContext } from "./context.ts";
import {
  type HandlerFn,
  isPageResult,
  type Method,
  type MethodMeta,
  type PageProps,
} from "./define.ts";
import { errorJson } from "./errors.ts";
import { renderPage } from "./render.ts";
import { decodeBody, validate } from "./request_body.ts";
import { emptyResponse, jsonResponse } from "./respond.ts";
import { allowedMethods, type RouteEntry } from "./route_table.ts";
import { SAFE_METHODS } from "./same_origin.ts";
import { Status } from "./status.ts";

const METHOD_NOT_ALLOWED = 405;
/** What a route takes by default: browsers post forms to pages; APIs take JSON. */
const PAGE_BODIES = ["form", "json"] as const;
const API_BODIES = ["json"] as const;

/** Calls the route's handler for the request's method and turns its result into a response. */
export async function invoke(
  entry: RouteEntry,
  ctx: RequestContext,
  loginPath: string,
): Promise<Response> {
  const method = (ctx.req.method === "HEAD" ? "GET" : ctx.req.method) as Method;
  const meta: MethodMeta | undefined = entry.module.meta?.[method];
  // The router validated body and query against the same meta the handler was typed by.
  const handlers = entry.module.handler as Record<string, HandlerFn> | undefined;
  const fn = handlers?.[method];
  if (!meta || (!fn && !(entry.isPage && method === "GET"))) {
    const allow = allowedMethods(entry).join(", ");
    return errorJson(
      METHOD_NOT_ALLOWED,
      `Method ${ctx.req.method} is not allowed on ${entry.pattern}`,
      {
        Allow: allow,
      },
    );
  }
  const refused = authorize(entry, meta, ctx, loginPath);
  if (refused) return refused;
  // Query and body validated here, inline: the body's read is this request's only wait before its handler.
  if (meta.query) {
    ctx.query = validate(meta.query, Object.fromEntries(ctx.url.searchParams), "query");
  }
  if (meta.body) {
    if (SAFE_METHODS.has(ctx.req.method)) throw new ValidationError("This method takes no body");
    const accepts = meta.accepts ?? (entry.isPage ? PAGE_BODIES : API_BODIES);
    const decoded = await decodeBody(ctx.req, meta.maxBodyBytes, accepts);
    ctx.body = meta.parseBody
      ? meta.parseBody(decoded.value)
      : validate(meta.body, decoded.value, "body");
  }
  const result = fn ? await fn(ctx) : undefined;
  if (result instanceof Response) return result;
  if (entry.isPage && (result === undefined || isPageResult(result))) {
    return renderRoutePage(entry, ctx, result);
  }
  if (result === null || result === undefined) return emptyResponse();
  ctx.headersApplied = true;
  return jsonResponse(result, meta.status ?? Status.OK, ctx.extraHeaders);
}

/**
 * Enforces `meta.access`: a page sends a visitor without a session to the
 * login page; an API call gets 401, or 403 when the role is too low.
 */
function authorize(
  entry: RouteEntry,
  meta: MethodMeta,
  ctx: RequestContext,
  loginPath: string,
): Response | null {
  if (meta.access === "public") return null;
  const auth = ctx.state.auth;
  if (!auth) {
    if (entry.isPage) {
      return ctx.redirect(
        `${loginPath}?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`,
      );
    }
    throw new UnauthorizedError(ctx.state.authError ?? "Authentication required");
  }
  if (!roleAtLeast(auth.user.role, meta.access)) {
    throw new ForbiddenError(
      `This action needs the "${meta.access}" role; you have "${auth.user.role}"`,
    );
  }
  return null;
}

function renderRoutePage(
  entry: RouteEntry,
  ctx: RequestContext,
  result: { data?: unknown; status?: number } | undefined,
): Promise<Response> | Response {
  const props: PageProps<unknown> = {
    data: result?.data,
    url: ctx.url,
    params: ctx.params,
    state: ctx.state,
    route: entry.pattern,
  };
  return renderPage(
    entry.module.default as unknown as ComponentType<PageProps<unknown>>,
    props,
    entry.wrappers,
    { status: result?.status },
  );
}
