/**
 * Labelled form controls with their help text and error message wired for
 * screen readers (`aria-describedby`, `aria-invalid`), so every form shows an
 * error next to the field that caused it in the same way.
 */
import type { ComponentChildren } from "preact";
import type { FormState } from "@/server/http/form.ts";
import { ErrorSummary } from "./error_summary.tsx";

interface Common {
  form: FormState;
  name: string;
  label: string;
  help?: ComponentChildren;
  /** Prefix of element ids, for pages with several forms using the same names. */
  idPrefix?: string;
}

function ids(p: Common) {
  const id = `${p.idPrefix ?? "f"}-${p.name.replace(/\W/g, "-")}`;
  const error = p.form.errors[p.name];
  const describedBy = [p.help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean)
    .join(" ") || undefined;
  return { id, error, describedBy };
}

function Extras({ p, id, error }: { p: Common; id: string; error?: string }) {
  return (
    <>
      {p.help && <p id={`${id}-help`} class="help">{p.help}</p>}
      {error && <p id={`${id}-error`} class="field-error" role="alert">{error}</p>}
    </>
  );
}

/** A field's label, marking it optional unless required. */
function Label({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <label for={id}>
      {label}
      {!required && <span class="optional">optional</span>}
    </label>
  );
}

/** A text-like input. */
export function Field(
  p: Common & {
    type?: "text" | "email" | "password" | "search" | "url";
    required?: boolean;
    placeholder?: string;
    inputMode?: "numeric" | "text" | "email";
    autocomplete?: string;
    value?: string;
  },
) {
  const { id, error, describedBy } = ids(p);
  return (
    <div class="field">
      <Label id={id} label={p.label} required={p.required} />
      <input
        id={id}
        name={p.name}
        // Preact's typings split <input> by type; these all take the same attributes.
        type={(p.type ?? "text") as "text"}
        value={p.value ?? p.form.values[p.name] ?? ""}
        required={p.required}
        placeholder={p.placeholder}
        inputMode={p.inputMode}
        autocomplete={p.autocomplete ?? "off"}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy}
      />
      <Extras p={p} id={id} error={error} />
    </div>
  );
}

/** A multi-line input. */
export function TextArea(p: Common & { rows?: number; required?: boolean }) {
  const { id, error, describedBy } = ids(p);
  return (
    <div class="field">
      <Label id={id} label={p.label} required={p.required} />
      <textarea
        id={id}
        name={p.name}
        rows={p.rows ?? 8}
        required={p.required}
        spellcheck={false}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy}
      >
        {p.form.values[p.name] ?? ""}
      </textarea>
      <Extras p={p} id={id} error={error} />
    </div>
  );
}

/** A drop-down of `options` ([value, label] pairs). */
export function Select(p: Common & { options: [string, string][]; value?: string }) {
  const { id, error, describedBy } = ids(p);
  const current = p.value ?? p.form.values[p.name] ?? "";
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      <select
        id={id}
        name={p.name}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy}
      >
        {p.options.map(([v, l]) => <option key={v} value={v} selected={v === current}>{l}</option>)}
      </select>
      <Extras p={p} id={id} error={error} />
    </div>
  );
}

/** A checkbox sending "true" when checked (absent otherwise). */
export function Check(p: Common & { checked: boolean }) {
  const { id, error, describedBy } = ids(p);
  return (
    <div class="field">
      <label class="check">
        <input
          type="checkbox"
          id={id}
          name={p.name}
          value="true"
          checked={p.checked}
          aria-describedby={describedBy}
        />
        {p.label}
      </label>
      <Extras p={p} id={id} error={error} />
    </div>
  );
}

/** The error that names no field, shown above the form's fields. */
export function FormError({ form }: { form: FormState }) {
  return <ErrorSummary message={form.errors[""]} />;
}

/** A one-button form that posts `_action` to the page it is on. */
export function ActionButton({ name, label }: { name: string; label: string }) {
  return (
    <form method="post" class="inline">
      <input type="hidden" name="_action" value={name} />
      <button type="submit">{label}</button>
    </form>
  );
}
