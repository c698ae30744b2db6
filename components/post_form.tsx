import type { ComponentChildren } from "preact";
import type { FormState } from "@/server/http/form.ts";
import { FormError } from "./form_fields.tsx";

interface PostFormProps {
  form: FormState;
  /** The hidden `_action` of a page with several forms. */
  action?: string;
  class: string;
  /** Id of the heading that names the form, else `label`. */
  labelledBy?: string;
  label?: string;
  /** Posts files (a zone file upload). */
  multipart?: boolean;
  children: ComponentChildren;
}

/**
 * A form posting to the page it is on: its `_action`, the refusal that names
 * no field above the fields, and browser validation left to the server so
 * every message reads the same.
 */
export function PostForm(p: PostFormProps) {
  return (
    <form
      method="post"
      enctype={p.multipart ? "multipart/form-data" : undefined}
      class={p.class}
      aria-labelledby={p.labelledBy}
      aria-label={p.label}
      novalidate
    >
      {p.action && <input type="hidden" name="_action" value={p.action} />}
      <FormError form={p.form} />
      {p.children}
    </form>
  );
}

/** A page section holding one form, named by its heading. */
export function FormSection(
  { id, heading, ...form }: Omit<PostFormProps, "labelledBy" | "label"> & {
    id: string;
    heading: ComponentChildren;
  },
) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <PostForm {...form} labelledBy={id} />
    </section>
  );
}

/** The submit button of a grid form, then any way out (a Cancel link). */
export function FormActions({ label, children }: { label: string; children?: ComponentChildren }) {
  return (
    <div class="form-actions">
      <button type="submit" class="primary">{label}</button>
      {children}
    </div>
  );
}
