/**
 * Errors in the shape of APIs Palisade imitates (the PowerDNS API):
 * `{"error": "…"}` alone, with the status of the error's class (errors.ts).
 */
import { UnauthorizedError } from "../../lib/errors.ts";
import { mapError } from "./errors.ts";

/** `{"error": message}` with `status`. */
export function bareError(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** Any thrown value as a bare error; `onUnexpected` hears of errors that are not domain errors. */
export function bareErrorOf(
  err: unknown,
  realm: string,
  onUnexpected: (err: unknown) => void,
): Response {
  const mapped = mapError(err);
  if (mapped.unexpected) onUnexpected(err);
  const headers = err instanceof UnauthorizedError
    ? { "WWW-Authenticate": `X-API-Key realm="${realm}"` }
    : mapped.headers;
  return bareError(mapped.status, mapped.message, headers);
}

/** A framework answer in `{error, status}` (method not allowed, for one) as a bare error. */
export async function reshapedError(res: Response): Promise<Response> {
  if (res.ok || !res.headers.get("content-type")?.startsWith("application/json")) return res;
  const body = await res.json();
  return bareError(
    res.status,
    String(body?.error ?? res.statusText),
    Object.fromEntries(res.headers),
  );
}
