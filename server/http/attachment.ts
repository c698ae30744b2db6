/**
 * A download answered as an attachment that no cache keeps: configuration
 * files hold private keys, backups every secret of the store. The caller
 * passes a file name already reduced to safe characters, so quoting it is
 * enough.
 */
export function attachment(
  body: BodyInit,
  filename: string,
  contentType: string,
  size?: number,
): Response {
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "no-store",
  };
  if (size !== undefined) headers["Content-Length"] = String(size);
  return new Response(body, { headers });
}
