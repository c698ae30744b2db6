/**
 * File-system routing rules, after Fresh: `index` names its folder,
 * `[name]` is a parameter, `[...name]` matches the rest of the path, `(group)`
 * folders do not appear in the URL, and `_middleware`, `_app`, `_layout` are
 * special files. Shared by the manifest generator and the router, so the two
 * cannot disagree.
 */

export type FileKind = "route" | "middleware" | "app" | "layout";

export interface RouteFile {
  /** Path relative to the listener's folder, with `/` separators. */
  file: string;
  kind: FileKind;
  /** Hono pattern, e.g. `/api/v1/peers/:id`; for special files the folder they govern. */
  pattern: string;
  /**
   * Folder of the file on disk, groups included, e.g. `/(dashboard)`: middleware
   * and layouts govern the routes below their folder, so a layout inside a
   * group applies only to that group.
   */
  dir: string;
}

const EXT = /\.(tsx?|jsx?)$/;

/** True for files the router loads (route or special); false for anything else. */
export function isRouteSource(file: string): boolean {
  return EXT.test(file) && !/_test\.(tsx?|jsx?)$/.test(file) &&
    !file.split("/").some((s) => s.startsWith("."));
}

function segmentToPattern(seg: string): string | null {
  if (/^\(.+\)$/.test(seg)) return null;
  const rest = /^\[\.\.\.([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(seg);
  if (rest) return `:${rest[1]}{.+}`;
  const param = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(seg);
  if (param) return `:${param[1]}`;
  if (/[\[\]]/.test(seg)) throw new Error(`Unsupported route segment "${seg}"`);
  return seg;
}

/** Classifies a file and computes its URL pattern. */
export function parseRouteFile(file: string): RouteFile {
  const parts = file.replace(EXT, "").split("/");
  const base = parts.pop()!;
  const dirSegs = parts.map(segmentToPattern).filter((s): s is string => s !== null);
  const dir = "/" + parts.join("/");
  const special: Record<string, FileKind> = {
    _middleware: "middleware",
    _app: "app",
    _layout: "layout",
  };
  if (base in special) return { file, kind: special[base], pattern: "/" + dirSegs.join("/"), dir };
  if (base.startsWith("_")) throw new Error(`Unknown special route file "${file}"`);
  const segs = base === "index" ? dirSegs : [...dirSegs, segmentToPattern(base)!];
  return { file, kind: "route", pattern: "/" + segs.join("/"), dir };
}

function rank(seg: string): number {
  if (seg.startsWith(":") && seg.includes("{")) return 2;
  if (seg.startsWith(":")) return 1;
  return 0;
}

/** Orders patterns so that static segments win over parameters, and parameters over rest matches. */
export function comparePatterns(a: string, b: string): number {
  const as = a.split("/").filter(Boolean);
  const bs = b.split("/").filter(Boolean);
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const d = rank(as[i]) - rank(bs[i]);
    if (d !== 0) return d;
    if (as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1;
  }
  return bs.length - as.length;
}

/** True when a file in folder `dir` governs `routeDir` (same folder or an ancestor). */
export function governs(dir: string, routeDir: string): boolean {
  return dir === "/" || routeDir === dir || routeDir.startsWith(dir + "/");
}
