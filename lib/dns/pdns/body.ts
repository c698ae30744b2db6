/** A PowerDNS API request body: JSON whatever the Content-Type (PowerDNS does not look at it). */
import { ValidationError } from "../../errors.ts";

/** The JSON object in `bytes`; 400 when it is not one. */
export function pdnsBody(bytes: Uint8Array): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ValidationError("Request body is not valid JSON");
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new ValidationError("Request body is not a JSON object");
  }
  return v as Record<string, unknown>;
}
