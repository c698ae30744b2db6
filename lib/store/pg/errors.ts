/**
 * PostgreSQL error codes the store acts on (SQLSTATE, appendix A of the
 * PostgreSQL manual), and the mapping of a unique violation to the
 * project's `ConflictError`. Unlike SQLite, PostgreSQL names the constraint
 * that failed, so a repository can name the field without checking first.
 */
import { ConflictError, type ErrorInfo } from "../../errors.ts";

export const UNIQUE_VIOLATION = "23505";
export const SERIALIZATION_FAILURE = "40001";
export const DEADLOCK_DETECTED = "40P01";

/** The SQLSTATE of a PostgreSQL error, or undefined for anything else. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** True when `err` is a UNIQUE or PRIMARY KEY violation. */
export function isPgUniqueViolation(err: unknown): boolean {
  return sqlState(err) === UNIQUE_VIOLATION;
}

/** True when the transaction lost a serialization conflict or a deadlock and may be re-run. */
export function isRetryable(err: unknown): boolean {
  const state = sqlState(err);
  return state === SERIALIZATION_FAILURE || state === DEADLOCK_DETECTED;
}

/** What a repository says about one constraint: the message and field of its conflict. */
export interface ConflictOf extends ErrorInfo {
  message: string;
}

/**
 * A unique violation as a `ConflictError`: the entry of `byConstraint` named
 * by the failed constraint, else `fallback`. Any other error is returned as is,
 * so a caller writes `catch (err) { throw conflictOnUnique(err, …) }`.
 */
export function conflictOnUnique(
  err: unknown,
  byConstraint: Record<string, ConflictOf>,
  fallback: ConflictOf,
): unknown {
  if (!isPgUniqueViolation(err)) return err;
  const name = (err as { constraint_name?: string }).constraint_name ?? "";
  const { message, ...info } = byConstraint[name] ?? fallback;
  return new ConflictError(message, info);
}
