/**
 * Serving files from one folder: no path may escape it (".." segments,
 * encoded separators and symlinks pointing outside are refused), with
 * content types, ETags and 304s.
 */
import { NotFoundError } from "../../lib/errors.ts";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  json: "application/json; charset=utf-8",
  wasm: "application/wasm",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
  map: "application/json; charset=utf-8",
};

/** Resolves `rel` inside `root` (an absolute folder path); null when it would escape. */
export async function resolveInside(root: string, rel: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    return null;
  }
  const segs = decoded.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.some((s) => s === ".." || s.includes("\\") || s.includes("\0"))) return null;
  const rootReal = await Deno.realPath(root);
  let path = [rootReal, ...segs].join("/");
  try {
    path = await Deno.realPath(path);
  } catch {
    return null;
  }
  return path === rootReal || path.startsWith(rootReal + "/") ? path : null;
}

/** Serves `rel` from `root`; a folder serves its `index.html`. 404 when absent or outside. */
export async function serveFile(
  req: Request,
  root: string,
  rel: string,
  opts: { cacheControl?: string } = {},
): Promise<Response> {
  let path = await resolveInside(root, rel);
  if (path && (await Deno.stat(path)).isDirectory) {
    path = await resolveInside(root, `${rel}/index.html`);
  }
  if (!path) throw new NotFoundError(`File "${rel}" does not exist`);
  const stat = await Deno.stat(path);
  if (!stat.isFile) throw new NotFoundError(`File "${rel}" does not exist`);
  const etag = `W/"${stat.size.toString(16)}-${(stat.mtime?.getTime() ?? 0).toString(16)}"`;
  const headers = new Headers({
    "Content-Type": TYPES[path.split(".").pop()!.toLowerCase()] ?? "application/octet-stream",
    "ETag": etag,
    "Cache-Control": opts.cacheControl ?? "no-cache",
  });
  if (req.headers.get("if-none-match") === etag) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(stat.size));
  if (req.method === "HEAD") return new Response(null, { headers });
  const file = await Deno.open(path, { read: true });
  return new Response(file.readable, { headers });
}
