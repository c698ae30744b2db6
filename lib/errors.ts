/**
 * Domain errors. `lib/` throws these; the HTTP layer maps each class to one
 * status in a single place (`server/errors.ts`), so no module outside that
 * mapping decides a status code.
 */

/** Base class: `message` is safe to show to a client. */
export class DomainError extends Error {
  override name = "DomainError";
}

/** Input is malformed or violates a schema (400). `field` names the culprit. */
export class ValidationError extends DomainError {
  override name = "ValidationError";
  constructor(message: string, readonly field?: string) {
    super(message);
  }
}

/** Input is well-formed but cannot be applied (422). */
export class UnprocessableError extends DomainError {
  override name = "UnprocessableError";
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

/** Too many attempts (429). `retryAfterSeconds` feeds the Retry-After header. */
export class RateLimitError extends DomainError {
  override name = "RateLimitError";
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}

/** The service is at capacity for now (503); `retryAfterSeconds` feeds Retry-After. */
export class UnavailableError extends DomainError {
  override name = "UnavailableError";
  constructor(message: string, readonly retryAfterSeconds = 60) {
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

/** Configuration is invalid; `variable` names the environment variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly variable: string, readonly problem: string) {
    super(`${variable}: ${problem}`);
  }
}
