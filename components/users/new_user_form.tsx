import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { type FormState, formText } from "@/server/http/form.ts";

const Text = formText(1024);

/** The form's fields as posted; `NewUserInput` (lib/auth/schema.ts) then checks them. */
export const NewUserBody = z.object({ username: Text, email: Text, password: Text, role: Text });

const ROLE_OPTIONS: [string, string][] = [
  ["viewer", "viewer: reads everything"],
  ["operator", "operator: changes tunnels, peers, zones"],
  ["administrator", "administrator: also settings and users"],
];

/** The new-user form of the users page. */
export function NewUserForm({ form }: { form: FormState }) {
  return (
    <FormSection
      id="new-user"
      heading="New user"
      form={form}
      action="create"
      class="card form-grid"
    >
      <Field
        form={form}
        name="username"
        label="Username"
        required
        autocomplete="off"
        help="1–64 letters, digits or . _ @ -"
      />
      <Field form={form} name="email" label="E-mail" type="email" />
      <Field
        form={form}
        name="password"
        label="Password"
        type="password"
        required
        autocomplete="new-password"
        help="At least 12 characters; the user can change it later."
      />
      <Select form={form} name="role" label="Role" options={ROLE_OPTIONS} />
      <FormActions label="Create user" />
    </FormSection>
  );
}
