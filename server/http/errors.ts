/**
 * The one place where errors become HTTP statuses. Domain errors carry a
 * message safe for the client; anything else is a 500 with a generic message,
 * and its details go to the log only.
 */
import {
  AttestInitError,
  ConflictError,
  DomainError,
  ForbiddenError,
  HostError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  RateLimitError,
  UnauthorizedError,
  UnavailableError,
  UnprocessableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../lib/errors.ts";
import type { ErrorClass } from "./define.ts";

const STATUS: [ErrorClass, number][] = [
  [ValidationError, 400],
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [UnprocessableError, 422],
  [RateLimitError, 429],
  [NotImplementedError, 501],
  [HostError, 500],
  [AttestInitError, 500],
  [UnavailableError, 503],
];

/** The status of an error class (for the OpenAPI document's responses). */
export function errorStatus(cls: ErrorClass): number {
  return STATUS.find(([c]) => c === cls || cls.prototype instanceof c)?.[1] ?? 500;
}

export interface MappedError {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Fields the error adds to the `{error, status}` body. */
  body?: Record<string, unknown>;
  /** True when the error was not a domain error and must be logged in full. */
  unexpected: boolean;
}

/** Maps any thrown value to a status and a client-safe message. */
export function mapError(err: unknown): MappedError {
  if (err instanceof DomainError) {
    const status = STATUS.find(([cls]) => err instanceof cls)?.[1] ?? 500;
    const headers: Record<string, string> = {};
    if (err instanceof RateLimitError || err instanceof UnavailableError) {
      if (err.retryAfterSeconds !== null) headers["Retry-After"] = String(err.retryAfterSeconds);
    }
    if (err instanceof UnauthorizedError) headers["WWW-Authenticate"] = "Bearer";
    // The spec's init failure is a bare 500; the reason is logged and counted, never sent.
    if (err instanceof AttestInitError) {
      return { status, message: "Session creation failed", headers, unexpected: true };
    }
    // A refused credential names what the caller must add (e.g. "totp_code"): clients act on `code`.
    const body = err instanceof UnavailableError
      ? err.body
      : err instanceof UnauthorizedError && err.code
      ? { code: err.code, ...(err.field ? { field: err.field } : {}) }
      : undefined;
    // HostError messages name the failing operation; their detail stays in the log.
    return { status, message: err.message, headers, body, unexpected: err instanceof HostError };
  }
  return { status: 500, message: "Internal server error", headers: {}, unexpected: true };
}

/** The `{error, status}` JSON body every non-2xx API response carries. */
export function errorJson(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  extra?: Record<string, unknown>,
): Response {
  return new Response(JSON.stringify({ error: message, status, ...extra }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}
