/**
 * Refusals a page finds itself, before or around a service call, with the
 * status of the domain error they stand for: the status comes from the one
 * mapping (`server/http/errors.ts`), never from a number in a route.
 */
import type { z } from "zod";
import { ValidationError } from "@/lib/errors.ts";
import { mapError } from "@/server/http/errors.ts";
import { formFailure, type FormState, zodFailure } from "@/server/http/form.ts";

/** Values that fail the form's schema: malformed input, each issue next to its field. */
export function zodRefusal(
  error: z.ZodError,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return {
    form: zodFailure(error, values),
    status: mapError(new ValidationError("The form has invalid fields")).status,
  };
}

/**
 * A refusal about the whole page rather than one field (a one-click action,
 * a confirmation, a download): its message and status. Rethrows what is not
 * a domain error.
 */
export function pageRefusal(err: unknown): { error: string; status: number } {
  const { form, status } = formFailure(err, {}, []);
  return { error: form.errors[""], status };
}
