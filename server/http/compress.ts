/**
 * Gzip for pages and assets the client accepts it for: a dashboard page of a
 * thousand peers is mostly repeated markup and shrinks about tenfold.
 */
const COMPRESSIBLE = /^(text\/(html|css|javascript)|image\/svg\+xml)\b/;
const MIN_COMPRESS_BYTES = 1024;
/** Answers without a body to compress, or with one that must stay as it is. */
const UNCOMPRESSED_STATUSES = new Set([204, 206, 304]);

/** `res` gzipped when the request accepts it and the body is worth it; else `res`. */
export function gzip(req: Request, res: Response): Response {
  const type = res.headers.get("content-type") ?? "";
  const length = Number(res.headers.get("content-length") ?? Infinity);
  if (
    !res.body || UNCOMPRESSED_STATUSES.has(res.status) ||
    !COMPRESSIBLE.test(type) ||
    res.headers.has("content-encoding") || length < MIN_COMPRESS_BYTES ||
    !/\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")
  ) {
    return res;
  }
  const out = new Response(res.body.pipeThrough(new CompressionStream("gzip")), res);
  out.headers.set("Content-Encoding", "gzip");
  out.headers.delete("Content-Length");
  out.headers.append("Vary", "Accept-Encoding");
  return out;
}
