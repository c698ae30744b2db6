/**
 * The shape of route modules, after Fresh 2: a module exports `handler` (an
 * object of HTTP methods, each `(ctx) => Response | data`) and/or a default
 * page component. Palisade adds one export, `meta`, declaring per method who
 * may call it and the zod schemas of its query, body and response; the router
 * enforces the first two and the OpenAPI document is generated from all three.
 *
 * Each listener gives its routes the services they may use, and nothing
 * else: a route file declares itself through its listener's `define`
 * (`createDefine<ListenerServices>()`, in server/listeners/<name>/context.ts),
 * and a method whose access is not "public" receives `ctx.auth` as a
 * signed-in user, since the router checked it before the handler runs.
 */
import type { ComponentType } from "preact";
import type { z } from "zod";
import type { Role } from "../../lib/auth/roles.ts";
import type { DomainError } from "../../lib/errors.ts";
import type { Authenticated } from "../../lib/auth/auth.ts";
import type { KeyScope } from "../../lib/dns/api_keys/scope.ts";
import type { ApiKeyPrincipal } from "../../lib/dns/api_keys/api_key_service.ts";
import type { ResponseHeaders } from "./response_headers.ts";
import type { RouteEntry } from "./route_table.ts";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = typeof METHODS[number];

/** Who may call a method: anyone, or a signed-in user of at least this role. */
export type Access = "public" | Role;

export interface MethodMeta {
  summary: string;
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * A hand-written parser used instead of `body` at run time, for hot paths
   * where zod's copying shows; `body` still documents the shape (OpenAPI) and a
   * test must show the two accept and refuse the same inputs. Throws
   * ValidationError naming the field.
   */
  parseBody?: (value: unknown) => unknown;
  /**
   * Largest request body in bytes; a larger one answers 413 before it is
   * read (default BODY_LIMIT, 1 MiB). Routes whose bodies are small by
   * nature declare less, so that a client cannot make them buffer more.
   */
  maxBodyBytes?: number;
  /**
   * The body media types the method takes: `json` (application/json and
   * `+json` types), `form` (urlencoded and multipart). Default: forms and
   * JSON for pages (browsers post forms), JSON only for everything else. A
   * body in another type, or without a Content-Type, answers 415.
   */
  accepts?: readonly BodyKind[];
  /**
   * The request body for the OpenAPI document alone (media type → schema),
   * where the handler reads the body itself and the router neither reads
   * nor checks it (a zone file sent as text/dns). Routes whose body the
   * router validates declare `body` instead.
   */
  documentedBody?: Readonly<Record<string, z.ZodType>>;
  /**
   * Errors the method may answer besides those the document derives from
   * access, path, query and body (400, 401, 403, 404, 409, 413, 415, 422):
   * RateLimitError for throttled routes, HostError or AttestInitError where
   * the spec answers 500, UnavailableError. The document lists their statuses.
   */
  errors?: readonly ErrorClass[];
  /** Schema of the 2xx JSON body. Absent for non-JSON responses. */
  response?: z.ZodType;
  /** Success status of a data result (default 200). */
  status?: number;
  /** Content type of a non-JSON success response, for the OpenAPI document. */
  produces?: string;
  /** Hidden from the OpenAPI document (pages, form posts, assets). */
  hidden?: boolean;
  /** OpenAPI tag; defaults to the first path segment after the prefix. */
  tag?: string;
}

export type BodyKind = "json" | "form";

/** A class of `lib/errors.ts`; server/http/errors.ts maps it to its status. */
export type ErrorClass = new (...a: never[]) => DomainError;

export type RouteMeta = Partial<Record<Method, MethodMeta>>;

/** The listener a request arrived on, with its resolved routes. */
export interface ListenerInfo {
  name: string;
  routes: readonly RouteEntry[];
}

/** Per-request state, filled by middleware. */
export interface State {
  listener: ListenerInfo;
  auth?: Authenticated;
  /** DNS-API listener: the scoped API key the request was made with (docs/dns.md, "API keys"). */
  apiKey?: ApiKeyPrincipal;
  /** Why a credential that was sent was refused (the 401 message). */
  authError?: string;
  /**
   * What the caller of the PowerDNS-compatible API may do (routes/dns_api/api/v1/servers/_middleware.ts);
   * every route there decides from it through `requirePdnsScope` (lib/dns/pdns/scope_check.ts).
   */
  pdnsScope?: KeyScope;
  /** Who the PowerDNS API's changes are audited as. */
  pdnsActor?: string;
  /** Page title, set by a page handler for the document's `<title>`. */
  title?: string;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

/** Who a method's handler is called for: a signed-in user unless the method is public. */
export type AuthOf<A> = A extends "public" ? Authenticated | undefined : Authenticated;

/** What a route or middleware sees; mirrors Fresh 2's context. */
export interface Context<
  Body = unknown,
  Query = unknown,
  Services = unknown,
  Auth = Authenticated | undefined,
> {
  readonly req: Request;
  /** The services of the listener the request arrived on. */
  readonly services: Services;
  /** The signed-in user (set by the listener's middleware). */
  readonly auth: Auth;
  readonly url: URL;
  readonly params: Record<string, string>;
  /** The matched pattern, e.g. `/api/v1/peers/:id`. */
  readonly route: string;
  readonly state: State;
  /** Validated request body (from JSON or a form), per `meta[method].body`. */
  readonly body: Body;
  /** Validated query, per `meta[method].query`. */
  readonly query: Query;
  /** Address of the TCP peer. */
  readonly remoteAddr: string;
  /** Headers added to whatever response the handler produces (e.g. Set-Cookie). */
  readonly headers: ResponseHeaders;
  /** Calls the next middleware or the route (middleware only). */
  next(): Promise<Response>;
  /** A 303 redirect to a same-site path. */
  redirect(path: string, status?: number): Response;
}

/** A page result: render the module's default component with `data`. */
export interface PageResult<T> {
  readonly __page: true;
  data: T;
  status?: number;
}

/** Returns a page result, like Fresh 2's `page()`. */
export function page<T>(data: T, init: { status?: number } = {}): PageResult<T> {
  return { __page: true, data, status: init.status };
}

export function isPageResult(v: unknown): v is PageResult<unknown> {
  return typeof v === "object" && v !== null && (v as { __page?: unknown }).__page === true;
}

export type HandlerResult = Response | PageResult<unknown> | object | null;

export type HandlerFn<B = unknown, Q = unknown, S = unknown, A = Authenticated | undefined> = (
  ctx: Context<B, Q, S, A>,
) => HandlerResult | Promise<HandlerResult>;

export type Handlers<M extends RouteMeta, S = unknown> = {
  [K in keyof M]: M[K] extends MethodMeta
    ? HandlerFn<Infer<M[K]["body"]>, Infer<M[K]["query"]>, S, AuthOf<M[K]["access"]>>
    : never;
};

export type Middleware<S = unknown> = (
  ctx: Context<unknown, unknown, S>,
) => Response | Promise<Response>;

/** A listener's way of declaring its route files, typed by the services it gives them. */
export interface Define<S> {
  /** A route's methods; keeps literal types for `handlers`. */
  meta<const M extends RouteMeta>(meta: M): M;
  /** Handlers typed by `meta`: `ctx.body`, `ctx.query` parsed, `ctx.auth` a user where access demands one. */
  handlers<M extends RouteMeta>(meta: M, handlers: Handlers<M, S>): Handlers<M, S>;
  /** A `_middleware` handler. */
  middleware(fn: Middleware<S>): Middleware<S>;
}

/** Makes a listener's `define`, like Fresh 2's `createDefine<State>()`. */
export function createDefine<S>(): Define<S> {
  return {
    meta: (meta) => meta,
    handlers: (_meta, handlers) => handlers,
    middleware: (fn) => fn,
  };
}

/** Props of a page component, like Fresh's `PageProps`. */
export interface PageProps<T = undefined> {
  data: T;
  url: URL;
  params: Record<string, string>;
  state: State;
  route: string;
}

/** Props of `_app.tsx` and `_layout.tsx`: the page to wrap. */
export interface LayoutProps extends PageProps<unknown> {
  Component: ComponentType<Record<string, never>>;
}

/**
 * Any route's handler: `never` body and query accept handlers of every
 * schema, since a context's `body` and `query` are read-only.
 */
export type AnyHandlerFn = HandlerFn<never, never, never, never>;

/** A route module as imported by the manifest. */
export interface RouteModule {
  handler?: Record<string, AnyHandlerFn> | Middleware<never> | Middleware<never>[];
  meta?: RouteMeta;
  /** A page (or, in `_app`/`_layout`, a wrapper); `never` props admit every page's data type. */
  default?: ComponentType<never>;
}

/** The generated manifest: listener → files → modules. */
export interface Manifest {
  listeners: Record<string, Record<string, RouteModule>>;
  islands: Record<string, ComponentType<never>>;
}
