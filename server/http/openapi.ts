/**
 * The OpenAPI 3.1 document of a listener, generated from the `meta` of its
 * route modules: paths from the file patterns, parameters and bodies from the
 * zod schemas (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 */
import { z } from "zod";
import { VERSION } from "../../lib/version.ts";
import { createDefine, METHODS } from "./define.ts";
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

/** Builds the document; API routes only (pages and hidden methods are left out). */
export function buildOpenApi(routes: readonly RouteEntry[], opts: OpenApiOptions): Json {
  const paths: Record<string, Json> = {};
  const errorRef = { $ref: "#/components/schemas/Error" };
  for (const route of routes) {
    if (route.isPage) continue;
    const path = openApiPath(route.pattern);
    const pathParams = [...route.pattern.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    for (const method of METHODS) {
      const meta = route.module.meta?.[method];
      if (!meta || meta.hidden) continue;
      const parameters: Json[] = [...pathParams];
      if (meta.query) {
        const q = schemaOf(meta.query, "input") as {
          properties?: Record<string, Json>;
          required?: string[];
        };
        for (const [name, schema] of Object.entries(q.properties ?? {})) {
          parameters.push({
            name,
            in: "query",
            required: q.required?.includes(name) ?? false,
            schema,
          });
        }
      }
      const status = String(meta.status ?? 200);
      const success: Json = { description: meta.summary };
      if (meta.response) {
        success.content = { "application/json": { schema: schemaOf(meta.response, "output") } };
      } else if (meta.produces) success.content = { [meta.produces]: {} };
      const op: Json = {
        operationId: `${method.toLowerCase()}${
          path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? "").toUpperCase())
        }`,
        summary: meta.summary,
        tags: [meta.tag ?? defaultTag(route.pattern)],
        parameters,
        responses: {
          [status]: success,
          ...(meta.access === "public" ? {} : {
            "401": {
              description: "Missing or invalid credential",
              content: { "application/json": { schema: errorRef } },
            },
          }),
          default: { description: "Error", content: { "application/json": { schema: errorRef } } },
        },
        security: meta.access === "public" ? [] : securityRequirement(opts.security),
      };
      if (meta.access !== "public") op["x-required-role"] = meta.access;
      if (meta.body) {
        op.requestBody = {
          required: true,
          content: { "application/json": { schema: schemaOf(meta.body, "input") } },
        };
      }
      (paths[path] ??= {})[method.toLowerCase()] = op;
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
