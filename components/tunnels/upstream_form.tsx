/**
 * The upstream import form (docs/dashboard.md, "Upstream import"): one form,
 * two buttons (Preview, Import). The pasted configuration holds the
 * interface's private key, so no answer of this page ever carries it back:
 * the textarea is rendered empty after a preview and after a refusal, and the
 * user pastes again to import. Only the name is kept.
 */
import { z } from "zod";
import { Field, TextArea } from "@/components/form_fields.tsx";
import { FormSection } from "@/components/post_form.tsx";
import type { UpstreamInput } from "@/lib/tunnel/upstream_import.ts";
import { formFailure, type FormState, formText, optionalText } from "@/server/http/form.ts";

/** The config's limit is the API's (`upstreamBodySchema`). */
export const UpstreamBody = z.object({
  _action: z.enum(["preview", "import"]),
  name: formText(15),
  config: formText(65_536),
});
export type UpstreamValues = z.infer<typeof UpstreamBody>;

/** The service's input; the config as posted, the name absent when empty. */
export function upstreamInput(values: UpstreamValues): UpstreamInput {
  return { name: optionalText(values, "name"), config: values.config };
}

/**
 * A refusal as form state: the message next to `config` (it names the line
 * and key, never a value) or `name`. The config is left out of the values.
 */
export function upstreamFailure(err: unknown, values: UpstreamValues) {
  return formFailure(err, { name: values.name }, ["name", "config"]);
}

/** The form; `previewed` says the configuration must be pasted again to import. */
export function UpstreamForm({ form, previewed }: { form: FormState; previewed: boolean }) {
  return (
    <FormSection id="upstream-form" heading="Configuration" form={form} class="card stack">
      <Field
        form={form}
        name="name"
        label="Interface name"
        help="Letters, digits, - and _, up to 15; empty: upstream, upstream-1…"
      />
      <TextArea
        form={form}
        name="config"
        label="WireGuard configuration"
        required
        rows={14}
        help={previewed
          ? "Paste the configuration again to import it: it holds a private key, so the page never sends it back."
          : "The wg-quick file from the provider: [Interface] and one [Peer]. Commands (PostUp…) are never run."}
      />
      <div class="form-actions">
        <button type="submit" name="_action" value="preview">Preview</button>
        <button type="submit" name="_action" value="import" class="primary">Import</button>
        <a href="/tunnels" class="button-link">Cancel</a>
      </div>
    </FormSection>
  );
}
