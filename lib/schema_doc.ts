/**
 * Rules a service enforces, documented on the zod schema that validates the
 * same input at the edge. The OpenAPI documents are generated from those
 * schemas; most rules are zod's own checks and appear there by themselves.
 * Where a service checks a rule with a status or message the API already
 * answers (422 for an MTU out of range, the profile's "Unknown device" 400),
 * the schema carries the rule as JSON Schema instead, built from the same
 * constants the service checks against: the document shows it, and zod
 * leaves the answer to the service. A refinement JSON Schema cannot show
 * (at least one field, exactly one of two) is documented the same way.
 */
import type { z } from "zod";

/** JSON Schema keywords a schema may carry for the document. */
export interface DocumentedRule {
  description?: string;
  enum?: readonly (string | number)[];
  pattern?: string;
  format?: "email" | "ipv4" | "date-time";
  minimum?: number;
  maximum?: number;
  minProperties?: number;
  /** Values a client can send as they are; the API test sends them. */
  examples?: readonly unknown[];
  oneOf?: readonly Record<string, unknown>[];
  anyOf?: readonly Record<string, unknown>[];
}

/** `schema`, with `rule` in its JSON Schema: checked by the service (or by a zod refinement JSON Schema cannot show), not by zod itself. */
export function documented<T extends z.ZodType>(schema: T, rule: DocumentedRule): T {
  return schema.meta(rule as Record<string, unknown>) as T;
}

/** A RegExp's source as a JSON Schema pattern (ECMA-262, which JSON Schema uses). */
export function patternOf(re: RegExp): string {
  return re.source;
}
