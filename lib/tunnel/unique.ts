/**
 * A unique or primary key violation on either engine. The tunnel services
 * check their unique rules before each write (the conflict names its field,
 * the same on both engines); this is the backstop for a write that still
 * collides: on PostgreSQL another instance can commit the same name between
 * the check and the write.
 */
import { isPgUniqueViolation } from "../store/pg/errors.ts";
import { isUniqueViolation } from "../store/store.ts";

export function isUnique(err: unknown): boolean {
  return isUniqueViolation(err) || isPgUniqueViolation(err);
}
