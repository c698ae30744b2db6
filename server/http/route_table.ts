/**
 * A listener's route table: the manifest's files resolved into routes, each
 * with its middleware chain and page wrappers, ordered so that static
 * segments win over parameters (Fresh's file conventions, route_pattern.ts).
 */
import { type Method, METHODS, type Middleware, type RouteModule } from "./define.ts";
import type { Wrapper } from "./render.ts";
import { comparePatterns, governs, parseRouteFile } from "./route_pattern.ts";

/** A route with everything resolved at start-up. */
export interface RouteEntry {
  file: string;
  pattern: string;
  module: RouteModule;
  middlewares: Middleware[];
  wrappers: Wrapper[];
  isPage: boolean;
}

/** Resolves the manifest entries of one listener into ordered routes. */
export function resolveRoutes(files: Record<string, RouteModule>): RouteEntry[] {
  const parsed = Object.entries(files).map(([file, module]) => ({
    ...parseRouteFile(file),
    module,
  }));
  const byDepth = (kind: string) =>
    parsed.filter((p) => p.kind === kind).sort((a, b) => a.dir.length - b.dir.length);
  const mws = byDepth("middleware");
  const layouts = byDepth("layout");
  const app = parsed.find((p) => p.kind === "app" && p.dir === "/");
  const routes: RouteEntry[] = [];
  for (const r of parsed.filter((p) => p.kind === "route")) {
    const middlewares = mws.filter((m) => governs(m.dir, r.dir)).flatMap((m) => {
      const h = m.module.handler;
      return (Array.isArray(h) ? h : [h]) as Middleware[];
    });
    const isPage = typeof r.module.default === "function";
    const wrappers = isPage
      ? [app, ...layouts.filter((l) => governs(l.dir, r.dir))]
        .filter((w) => w !== undefined)
        .map((w) => w!.module.default as unknown as Wrapper)
      : [];
    routes.push({
      file: r.file,
      pattern: r.pattern,
      module: r.module,
      middlewares,
      wrappers,
      isPage,
    });
  }
  return routes.sort((a, b) => comparePatterns(a.pattern, b.pattern));
}

/** The methods a route answers, for `Allow`. */
export function allowedMethods(entry: RouteEntry): Method[] {
  return METHODS.filter((m) => entry.module.meta?.[m]);
}
