/**
 * The OpenAPI 3.1 document of a listener, generated from the `meta` of its
 * route modules: paths from the file patterns, parameters and bodies from the
 * zod schemas that validate them (JSON Schema 2020-12, which OpenAPI 3.1 uses
 * as is), and each operation's error statuses from what it takes. A rule a
 * service enforces with its own status and message is carried by the schema's
 * metadata (lib/schema_doc.ts), so it is documented from the same schema.
 */
import { z } from "zod";
import { VERSION } from "../../lib/version.ts";
import { createDefine, type Method, type MethodMeta, METHODS } from "./define.ts";
import { errorStatus } from "./errors.ts";
import { Status } from "./status.ts";
import type { RouteEntry } from "./route_table.ts";

export type SecurityStyle = "session-or-token" | "jwt" | "none";

export interface OpenApiOptions {
  title: string;
  description: string;
  security: SecurityStyle;
}

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
  }) as Json;
  return rest;
}

/** `/api/v1/peers/:id` → `/api/v1/peers/{id}`. */
export function openApiPath(pattern: string): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, "{$1}");
}

function securitySchemes(style: SecurityStyle): Json {
  if (style === "session-or-token") {
    return {
      cookieAuth: { type: "apiKey", in: "cookie", name: "svc_session" },
      bearerAuth: { type: "http", scheme: "bearer", description: "API token svc_<uuid>_<random>" },
    };
  }
  if (style === "jwt") {
    return { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } };
  }
  return {};
}

function securityRequirement(style: SecurityStyle): Json[] {
  if (style === "session-or-token") return [{ cookieAuth: [] }, { bearerAuth: [] }];
  if (style === "jwt") return [{ bearerAuth: [] }];
  return [];
}

function defaultTag(pattern: string): string {
  const segs = pattern.split("/").filter((s) => s && !/^(api|v\d+)$/.test(s));
  return segs[0]?.replace(/^:/, "") ?? "root";
}

/** What each error status means, as the document describes it. */
const ERROR_TEXT: Record<number, string> = {
  400: "Malformed input; the message names the field",
  401: "Missing or invalid credential",
  403: "Role too low, cross-site request, or a protected resource",
  404: "No such resource",
  409: "Conflicts with existing data or the resource's state",
  413: "Request body larger than this operation takes",
  415: "Request body in a media type this operation does not take",
  422: "Well-formed input that cannot be applied",
  429: "Too many attempts; Retry-After says when to try again",
  500: "The operation failed on the server",
  503: "Unavailable for now; Retry-After says when to try again, where known",
};

/**
 * The error statuses of an operation: those the router and the services
 * answer for what it takes (credential, path, query, body), and those
 * `meta.errors` names.
 */
function errorStatuses(meta: MethodMeta, method: Method, hasParams: boolean): number[] {
  const out = new Set((meta.errors ?? []).map(errorStatus));
  const hasBody = meta.body !== undefined || meta.documentedBody !== undefined;
  const upgrade = meta.status === Status.SwitchingProtocols;
  if (hasParams || hasBody || meta.query || upgrade) out.add(400);
  if (meta.access !== "public") {
    out.add(401);
    out.add(403);
    if (hasParams || hasBody) out.add(409);
  }
  if (hasParams) out.add(404);
  if (meta.body) out.add(415);
  if (hasBody) out.add(413);
  if (hasBody || meta.query || (hasParams && method !== "GET")) out.add(422);
  return [...out].sort((a, b) => a - b);
}

/** The request body: the JSON the router validates, or what the handler reads itself. */
function requestBody(meta: MethodMeta): Json | undefined {
  const content: Json = {};
  if (meta.body) content["application/json"] = { schema: schemaOf(meta.body, "input") };
  for (const [type, schema] of Object.entries(meta.documentedBody ?? {})) {
    content[type] = { schema: schemaOf(schema, "input") };
  }
  return Object.keys(content).length ? { required: true, content } : undefined;
}

function queryParameters(meta: MethodMeta): Json[] {
  if (!meta.query) return [];
  const q = schemaOf(meta.query, "input") as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(q.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: q.required?.includes(name) ?? false,
    schema,
  }));
}

function responses(meta: MethodMeta, method: Method, hasParams: boolean): Json {
  const errorBody = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
  const success: Json = { description: meta.summary };
  if (meta.response) {
    success.content = { "application/json": { schema: schemaOf(meta.response, "output") } };
  } else if (meta.produces) success.content = { [meta.produces]: {} };
  const out: Json = { [String(meta.status ?? Status.OK)]: success };
  for (const status of errorStatuses(meta, method, hasParams)) {
    out[String(status)] = { description: ERROR_TEXT[status], content: errorBody };
  }
  return out;
}

function operation(route: RouteEntry, method: Method, meta: MethodMeta, opts: OpenApiOptions) {
  const path = openApiPath(route.pattern);
  const pathParams = [...route.pattern.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string", minLength: 1 },
  }));
  const op: Json = {
    operationId: `${method.toLowerCase()}${
      path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? "").toUpperCase())
    }`,
    summary: meta.summary,
    tags: [meta.tag ?? defaultTag(route.pattern)],
    parameters: [...pathParams, ...queryParameters(meta)],
    responses: responses(meta, method, pathParams.length > 0),
    security: meta.access === "public" ? [] : securityRequirement(opts.security),
  };
  if (meta.access !== "public") op["x-required-role"] = meta.access;
  const body = requestBody(meta);
  if (body) op.requestBody = body;
  return op;
}

/** Builds the document; API routes only (pages and hidden methods are left out). */
export function buildOpenApi(routes: readonly RouteEntry[], opts: OpenApiOptions): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.isPage) continue;
    for (const method of METHODS) {
      const meta = route.module.meta?.[method];
      if (!meta || meta.hidden) continue;
      (paths[openApiPath(route.pattern)] ??= {})[method.toLowerCase()] = operation(
        route,
        method,
        meta,
        opts,
      );
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: opts.title, version: VERSION, description: opts.description },
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["error", "status"],
          properties: { error: { type: "string" }, status: { type: "integer" } },
        },
      },
      securitySchemes: securitySchemes(opts.security),
    },
  };
}

const cache = new WeakMap<readonly RouteEntry[], Json>();

/** The document of a listener, built once per route table. */
export function openApiDocument(routes: readonly RouteEntry[], opts: OpenApiOptions): Json {
  let doc = cache.get(routes);
  if (!doc) cache.set(routes, doc = buildOpenApi(routes, opts));
  return doc;
}

/** The `meta` and `handler` of a listener's `openapi.json` route. */
export function openApiRoute(opts: OpenApiOptions) {
  const define = createDefine<unknown>();
  const meta = define.meta({
    GET: { summary: "OpenAPI 3.1 document of this listener", access: "public", hidden: true },
  });
  const handler = define.handlers(meta, {
    GET: (ctx) => openApiDocument(ctx.state.listener.routes, opts),
  });
  return { meta, handler };
}
