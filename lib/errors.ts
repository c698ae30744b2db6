/**
 * Domain errors: every error `lib/` throws on purpose. The HTTP layer maps
 * each class to one status in a single place (`server/http/errors.ts`), so
 * no module outside that mapping decides a status code, and nothing decides
 * anything from an error's message text: forms read `field`, callers that
 * must tell errors apart read `code`.
 */

/** What an error is about, for the forms and callers that act on it. */
export interface ErrorInfo {
  /** The input field at fault, as the API names it (`mtu`, `operations[3].id`). */
  field?: string;
  /** A stable machine-readable reason, where a caller needs one (`duplicate_name`). */
  code?: string;
}

/** `ErrorInfo`, or just the field's name. */
export type ErrorInfoArg = ErrorInfo | string | undefined;

function infoOf(arg: ErrorInfoArg): ErrorInfo {
  return typeof arg === "string" ? { field: arg } : arg ?? {};
}

/** Base class: `message` is safe to show to a client. */
export class DomainError extends Error {
  override name = "DomainError";
  readonly field?: string;
  readonly code?: string;

  constructor(message: string, info?: ErrorInfoArg) {
    super(message);
    const { field, code } = infoOf(info);
    if (field !== undefined) this.field = field;
    if (code !== undefined) this.code = code;
  }

  /** The same kind of error, field and code with another message (e.g. prefixed by the line it came from). */
  withMessage(message: string): DomainError {
    const Cls = this.constructor as new (m: string, i?: ErrorInfo) => DomainError;
    return new Cls(message, { field: this.field, code: this.code });
  }
}

/** Input is malformed or violates a schema (400). */
export class ValidationError extends DomainError {
  override name = "ValidationError";
}

/** Input is well-formed but cannot be applied (422). */
export class UnprocessableError extends DomainError {
  override name = "UnprocessableError";
}

/**
 * Several fields of one submission were refused (422); `errors` holds each
 * field's message, and nothing of the submission was applied.
 */
export class FieldErrors extends UnprocessableError {
  override name = "FieldErrors";
  constructor(message: string, readonly errors: Record<string, string>) {
    super(message);
  }
}

/** The credential is missing, invalid or expired (401). */
export class UnauthorizedError extends DomainError {
  override name = "UnauthorizedError";
}

/** The caller is known but its role is too low, or the resource is protected (403). */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
}

/** The resource does not exist (404). */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
}

/** A unique constraint or state conflict (409). */
export class ConflictError extends DomainError {
  override name = "ConflictError";
}

/** The request body is larger than allowed (413). */
export class PayloadTooLargeError extends DomainError {
  override name = "PayloadTooLargeError";
}

/** The request body is in a media type the route does not take (415). */
export class UnsupportedMediaTypeError extends DomainError {
  override name = "UnsupportedMediaTypeError";
}

/** The request names something this server does not implement (501), e.g. a PowerDNS API endpoint Palisade has no counterpart for. */
export class NotImplementedError extends DomainError {
  override name = "NotImplementedError";
}

/** Too many attempts (429). `retryAfterSeconds` feeds the Retry-After header. */
export class RateLimitError extends DomainError {
  override name = "RateLimitError";
  constructor(message: string, readonly retryAfterSeconds: number, info?: ErrorInfoArg) {
    super(message, info);
  }
}

/**
 * The service is at capacity or a dependency is down (503); `retryAfterSeconds`
 * feeds Retry-After (none when null), `body` adds fields to the error body.
 */
export class UnavailableError extends DomainError {
  override name = "UnavailableError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number | null = 60,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The host execution layer failed (500). `detail` holds command output for the
 * log only; the client sees `message`.
 */
export class HostError extends DomainError {
  override name = "HostError";
  constructor(message: string, readonly detail?: string) {
    super(message);
  }
}

/** Attestation session creation failed (the spec's bare 500); the reason is logged and counted. */
export class AttestInitError extends DomainError {
  override name = "AttestInitError";
}

/** What one operation of a DNS record batch came to. */
export type BatchStatus = "created" | "updated" | "deleted" | "failed" | "rolled_back" | "skipped";

export interface BatchResult {
  operation: string;
  /** The record's id; absent for a create that did not happen. */
  id?: string;
  status: BatchStatus;
  /** On the failed operation: the error message. */
  error?: string;
}

/**
 * A batch failed and nothing was applied. `results` has one entry per
 * operation ("rolled_back" before the failure, "failed" at it, "skipped"
 * after it); `cause` is the domain error of the failed operation and decides
 * the HTTP status.
 */
export class BatchError extends DomainError {
  override name = "BatchError";
  constructor(
    message: string,
    readonly results: BatchResult[],
    readonly index: number,
    override readonly cause: DomainError,
  ) {
    super(message, { field: cause.field, code: cause.code });
  }
}

/** Configuration is invalid; `variable` names the environment variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly variable: string, readonly problem: string) {
    super(`${variable}: ${problem}`);
  }
}
