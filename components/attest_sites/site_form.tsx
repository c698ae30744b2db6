/**
 * The site form of the sites pages (new and edit): its fields, the service
 * input, and a refusal next to its field (the service names `name`,
 * `origins[i]`, `min_chain` or `token_ttl_s`).
 */
import { z } from "zod";
import { Field, TextArea } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { SiteInput, SiteView } from "@/lib/attest/sites/site_service.ts";
import { ValidationError } from "@/lib/errors.ts";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";

/** The form's fields as posted. */
export const SiteBody = z.object({
  name: formText(200),
  origins: formText(4000),
  min_chain: formText(20),
  token_ttl_s: formText(20),
});

type Values = z.infer<typeof SiteBody>;
const FIELDS = Object.keys(SiteBody.shape);

/** The service input: one origin per line (or separated by spaces), as typed. */
export function siteInput(values: Values): SiteInput {
  const origins = values.origins.split(/\s+/).filter((o) => o !== "");
  if (origins.length === 0) throw new ValidationError("Enter at least one origin", "origins");
  return {
    name: values.name.trim(),
    origins,
    min_chain: optionalInt(values, "min_chain"),
    token_ttl_s: optionalInt(values, "token_ttl_s"),
  };
}

/** A refused site as form state; an error about one origin shows next to the origins. */
export function siteFailure(
  err: unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  const aliases: Record<string, string> = {};
  const field = (err as { field?: unknown })?.field;
  if (typeof field === "string" && field.startsWith("origins[")) aliases[field] = "origins";
  return formFailure(err, values, FIELDS, { aliases });
}

/** The form's values for an existing site. */
export function siteValues(s: SiteView): Record<string, string> {
  return {
    name: s.name,
    origins: s.origins.join("\n"),
    min_chain: String(s.min_chain),
    token_ttl_s: String(s.token_ttl_s),
  };
}

/** The site form, for administrators: new (heading "New site") or edit. */
export function SiteForm(
  { form, heading, label }: { form: FormState; heading: string; label: string },
) {
  return (
    <FormSection id="site-form" heading={heading} form={form} class="card form-grid">
      <Field form={form} name="name" label="Name" required placeholder="shop" />
      <TextArea
        form={form}
        name="origins"
        label="Origins"
        rows={3}
        required
        help="One per line, as the browser sends it: https://shop.example (http only for localhost), no path."
      />
      <Field
        form={form}
        name="min_chain"
        label="Minimum chain"
        inputMode="numeric"
        help="Accepted heartbeats before a token is issued, 1 to 1000; 3 when empty."
      />
      <Field
        form={form}
        name="token_ttl_s"
        label="Token lifetime (seconds)"
        inputMode="numeric"
        help="10 to 3600; 300 when empty."
      />
      <FormActions label={label} />
    </FormSection>
  );
}
