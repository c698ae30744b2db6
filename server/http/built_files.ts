/**
 * Serving one file produced by `deno task build` (the embeddable attestation
 * script, the WASM core) to pages on any origin.
 */
import { NotFoundError } from "../../lib/errors.ts";
import { fromFileUrl } from "./paths.ts";
import { serveFile } from "./static_files.ts";

/**
 * Serves `file` with an ETag. "no-cache" (revalidate on every use, a 304 when
 * unchanged) because script and module must come from the same build: a
 * cached old script would drive a new module through an old ABI. The
 * resource policy lets pages with Cross-Origin-Embedder-Policy load them.
 */
export async function serveBuiltFile(req: Request, file: URL): Promise<Response> {
  const path = fromFileUrl(file);
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  let res: Response;
  try {
    res = await serveFile(req, path.slice(0, slash), name, { cacheControl: "no-cache" });
  } catch (err) {
    // The build folder itself is missing on a clean clone before the first build.
    if (err instanceof Deno.errors.NotFound) throw new NotFoundError(`File "${name}" is not built`);
    throw err;
  }
  res.headers.set("Cross-Origin-Resource-Policy", "cross-origin");
  res.headers.set("X-Content-Type-Options", "nosniff");
  return res;
}
