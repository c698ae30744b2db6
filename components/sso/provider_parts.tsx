/** The single sign-on pages' parts (docs/sso.md): the providers table and the provider form. */
import { z } from "zod";
import { Check, Field, TextArea } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { Table } from "@/components/table.tsx";
import type { ProviderInput } from "@/lib/auth/oidc/provider_input.ts";
import { DEFAULT_CLAIM, DEFAULT_SCOPES, formatRoleMap } from "@/lib/auth/oidc/provider_input.ts";
import type { ProviderInfo } from "@/lib/auth/oidc/providers.ts";
import type { FormState } from "@/server/http/form.ts";
import { formText } from "@/server/http/form.ts";

export const ProviderBody = z.object({
  id: formText(64),
  display_name: formText(128),
  issuer: formText(2000),
  client_id: formText(512),
  client_secret: formText(2048),
  scopes: formText(512),
  claim: formText(128),
  role_map: formText(4000),
  enabled: formText(10),
  logout_at_provider: formText(10),
});

export const PROVIDER_FIELDS = [
  "id",
  "display_name",
  "issuer",
  "client_id",
  "client_secret",
  "scopes",
  "claim",
  "role_map",
];

/** The form's values as the service takes them. */
export const providerInput = (b: z.output<typeof ProviderBody>): ProviderInput => ({
  ...b,
  enabled: b.enabled === "true",
  logout_at_provider: b.logout_at_provider === "true",
});

/** The form values of a stored provider (never its secret). */
export const providerValues = (p: ProviderInfo): Record<string, string> => ({
  id: p.id,
  display_name: p.display_name,
  issuer: p.issuer,
  client_id: p.client_id,
  client_secret: "",
  scopes: p.scopes,
  claim: p.claim,
  role_map: formatRoleMap(p.role_map),
  enabled: String(p.enabled),
  logout_at_provider: String(p.logout_at_provider),
});

export const NEW_PROVIDER_VALUES = {
  scopes: DEFAULT_SCOPES,
  claim: DEFAULT_CLAIM,
  enabled: "true",
  logout_at_provider: "true",
};

export function ProvidersTable({ providers }: { providers: ProviderInfo[] }) {
  if (providers.length === 0) return <p class="muted">No sign-in providers.</p>;
  return (
    <Table
      class="sso-providers"
      columns={[{ label: "Name" }, { label: "Issuer" }, { label: "Roles" }, { label: "State" }]}
    >
      {providers.map((p) => (
        <tr key={p.id} data-provider-id={p.id}>
          <td>
            <a href={`/sso-providers/${p.id}`}>{p.display_name}</a>
          </td>
          <td>{p.issuer}</td>
          <td>
            {Object.entries(p.role_map).map(([v, r]) => `${p.claim} ${v} → ${r}`).join(", ")}
          </td>
          <td>{p.enabled ? "enabled" : "disabled"}</td>
        </tr>
      ))}
    </Table>
  );
}

/** The provider form: new (with an id) or edit (the id fixed, an empty secret keeps it). */
export function ProviderForm(
  { form, editing, callback }: { form: FormState; editing: boolean; callback: string },
) {
  return (
    <FormSection
      id="provider-form"
      heading={editing ? "Provider settings" : "New provider"}
      form={form}
      action={editing ? "save" : "create"}
      class="card form-grid"
    >
      {!editing && (
        <Field form={form} name="id" label="Id" required help="Lower-case, used in URLs" />
      )}
      <Field form={form} name="display_name" label="Display name" required />
      <Field
        form={form}
        name="issuer"
        label="Issuer"
        type="url"
        required
        placeholder="https://idp.example.org"
        help={`Register ${callback} as the redirect URI at the provider`}
      />
      <Field form={form} name="client_id" label="Client id" required />
      <Field
        form={form}
        name="client_secret"
        label="Client secret"
        type="password"
        autocomplete="off"
        required={!editing}
        help={editing ? "Leave empty to keep the stored secret" : undefined}
      />
      <Field form={form} name="scopes" label="Scopes" required />
      <Field form={form} name="claim" label="Role claim" required help="For example groups" />
      <TextArea
        form={form}
        name="role_map"
        label="Claim values to roles"
        rows={4}
        required
        help="One claim value=role per line, e.g. netops=operator; the highest role matching wins"
      />
      <Check form={form} name="enabled" label="Enabled" checked={form.values.enabled === "true"} />
      <Check
        form={form}
        name="logout_at_provider"
        label="Sign out at the provider too"
        checked={form.values.logout_at_provider === "true"}
        help={`When the provider offers it; register ${
          callback.replace(/\/sso\/callback$/, "/login")
        } as its post-logout redirect URI`}
      />
      <FormActions label={editing ? "Save provider" : "Create provider"} />
    </FormSection>
  );
}
