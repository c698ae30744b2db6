/**
 * The new-network form of the networks page: its fields, the service input,
 * and a refusal next to its field (the service names `name` or `cidr`).
 */
import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { formFailure, type FormState, formText } from "@/server/http/form.ts";

/** The form's fields as posted. */
export const NetworkBody = z.object({ name: formText(200), cidr: formText(200) });

type Values = z.infer<typeof NetworkBody>;
const FIELDS = Object.keys(NetworkBody.shape);

/** The service input: the values as typed (the service refuses, rather than fixes, a bad block). */
export function networkInput(values: Values) {
  return { name: values.name.trim(), cidr: values.cidr.trim() };
}

/** A refused network as form state. */
export function networkFailure(
  err: unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return formFailure(err, values, FIELDS);
}

/** The new-network form, for operators. */
export function NewNetworkForm({ form }: { form: FormState }) {
  return (
    <FormSection id="new-network" heading="New network" form={form} class="card form-grid">
      <Field
        form={form}
        name="name"
        label="Name"
        required
        placeholder="lab"
        help="1 to 64 of A–Z, a–z, 0–9, ., _ and -."
      />
      <Field
        form={form}
        name="cidr"
        label="Block"
        required
        placeholder="10.20.0.0/16"
        help="An IPv4 block with its host bits zero, /8 to /30, overlapping no other network."
      />
      <FormActions label="Create network" />
    </FormSection>
  );
}
