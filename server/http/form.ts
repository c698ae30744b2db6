/**
 * Dashboard forms: what a page needs to re-render a form after a refused
 * submission. A domain error becomes a status and a message shown next to the
 * field that caused it; errors that name no field are shown above the form.
 */
import { z } from "zod";
import { DomainError, ValidationError } from "../../lib/errors.ts";
import { mapError } from "./errors.ts";

/** Values typed by the user and the messages to show, by field name ("" is the whole form). */
export interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

export const emptyForm = (values: Record<string, string> = {}): FormState => ({
  values,
  errors: {},
});

/**
 * The form field an error is about: its `field` when the form has one of
 * that name (`aliases` maps the service's names to the form's), else null.
 */
export function fieldOf(
  err: DomainError,
  fields: readonly string[],
  aliases: Record<string, string> = {},
): string | null {
  if (!err.field) return null;
  const f = aliases[err.field] ?? err.field;
  return fields.includes(f) ? f : null;
}

/**
 * Turns a thrown domain error into a form state and status; rethrows
 * anything else (the router logs it and answers 500). An error naming no
 * field goes to `fallback` (e.g. "Zone exists" to the name), else above the form.
 */
export function formFailure(
  err: unknown,
  values: Record<string, string>,
  fields: readonly string[],
  opts: { aliases?: Record<string, string>; fallback?: string } = {},
): { form: FormState; status: number } {
  if (!(err instanceof DomainError)) throw err;
  const { status, message } = mapError(err);
  const field = fieldOf(err, fields, opts.aliases) ?? opts.fallback ?? "";
  return { form: { values, errors: { [field]: message } }, status };
}

/** Form state from a failed zod parse of form values: each issue next to its field. */
export function zodFailure(error: z.ZodError, values: Record<string, string>): FormState {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (errors[field]) continue;
    // Custom messages ("must be at least 12 characters") read after the field's name.
    const m = issue.message;
    const named = field && /^[a-z]/.test(m) ? `${field.replace(/_/g, " ")} ${m}` : m;
    errors[field] = named.charAt(0).toUpperCase() + named.slice(1);
  }
  return { values, errors };
}

/**
 * An optional whole number from a form field: "" → undefined. A non-number
 * throws a ValidationError naming the field, so it shows next to it.
 */
export function optionalInt(values: Record<string, string>, field: string): number | undefined {
  const raw = (values[field] ?? "").trim();
  if (raw === "") return undefined;
  if (!/^-?\d+$/.test(raw)) {
    throw new ValidationError(`Enter a whole number, not ${JSON.stringify(raw)}`, field);
  }
  return Number(raw);
}

/** A trimmed optional string: "" → undefined. */
export function optionalText(values: Record<string, string>, field: string): string | undefined {
  const v = (values[field] ?? "").trim();
  return v === "" ? undefined : v;
}

/** A text field of a dashboard form: absent is "", longer than `max` is refused (400). */
export function formText(max = 1000) {
  return z.string().max(max).default("");
}
