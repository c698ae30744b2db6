/**
 * The DNS API keys page's parts (docs/dns.md, "API keys"): the keys as the
 * key service lists them (never the key or its hash), the new-key form with
 * its ACME-only preset, and the key just created, shown once.
 */
import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { FormSection } from "@/components/post_form.tsx";
import { Table } from "@/components/table.tsx";
import CopyButton from "@/islands/CopyButton.tsx";
import type { ApiKeyInfo } from "@/lib/dns/api_keys/api_key_service.ts";
import { scopeSummary } from "@/lib/dns/api_keys/scope_input.ts";
import type { FormState } from "@/server/http/form.ts";
import { formText } from "@/server/http/form.ts";

/** The new-key form's fields as posted; `preset` is the button that sent it. */
export const ApiKeyBody = z.object({
  name: formText(100),
  zones: formText(4000),
  types: formText(1000),
  names: formText(4000),
  access: formText(10),
  expires_at: formText(40),
  preset: formText(10),
});

/** The form's fields, for errors the service names. */
export const API_KEY_FIELDS = ["name", "zones", "types", "names", "access", "expires_at"];

const when = (iso: string | null, none: string) => iso ? iso.slice(0, 16).replace("T", " ") : none;

/** Every key with its scope, times and revoke link. */
export function ApiKeysTable({ keys }: { keys: ApiKeyInfo[] }) {
  if (keys.length === 0) return <p class="muted">No DNS API keys.</p>;
  return (
    <Table
      class="api-keys"
      columns={[
        { label: "Name" },
        { label: "Scope" },
        { label: "Created" },
        { label: "Expires" },
        { label: "Last used" },
        { label: <span class="visually-hidden">Actions</span> },
      ]}
    >
      {keys.map((k) => (
        <tr key={k.id} data-key-id={k.id}>
          <td>{k.name}</td>
          <td>{scopeSummary(k.scope)}</td>
          <td>{when(k.created_at, "")} by {k.created_by}</td>
          <td>{k.expired ? `expired ${when(k.expires_at, "")}` : when(k.expires_at, "never")}</td>
          <td>{when(k.last_used_at, "never")}</td>
          <td>
            <a href={`/dns-api-keys/${k.id}/revoke`}>Revoke</a>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The new-key form: a key of any scope, or in one click the ACME-only one for the zones given. */
export function NewApiKeyForm({ form }: { form: FormState }) {
  return (
    <FormSection id="new-api-key" heading="New DNS API key" form={form} class="card form-grid">
      <Field form={form} name="name" label="Name" required placeholder="lego-example-org" />
      <Field
        form={form}
        name="zones"
        label="Zones"
        required
        placeholder="example.org, example.net"
        help='Zones the key may touch, separated by commas or spaces; "*" for every zone.'
      />
      <Field
        form={form}
        name="types"
        label="Record types"
        help='Such as "TXT, A"; "*" (or empty) for every type. Ignored by the ACME-only preset.'
      />
      <Field
        form={form}
        name="names"
        label="Name patterns"
        help='Owner names; a "*" label stands for one or more labels ("_acme-challenge.*"). "*" (or empty) for every name. Ignored by the ACME-only preset.'
      />
      <Select
        form={form}
        name="access"
        label="Access"
        options={[["write", "read and write"], ["read", "read only"]]}
      />
      <Field
        form={form}
        name="expires_at"
        label="Expires"
        placeholder="2027-01-31T00:00:00Z"
        help="A date and time (ISO 8601); empty for a key that does not expire."
      />
      <div class="form-actions">
        <button type="submit" class="primary" name="preset" value="">Create key</button>
        <button type="submit" name="preset" value="acme">
          Create ACME-only key (TXT at _acme-challenge.*, write)
        </button>
      </div>
    </FormSection>
  );
}

/** The key just created: on this answer only, never on a later page. */
export function NewApiKeySecret({ name, secret }: { name: string; secret: string }) {
  return (
    <section class="card stack" aria-labelledby="api-key-secret">
      <h2 id="api-key-secret">Key "{name}" created</h2>
      <p class="notice" role="alert">
        Copy it now: it will not be shown again. Only its hash is kept; a lost key must be revoked
        and replaced. Send it as <code>X-API-Key</code>.
      </p>
      <pre id="new-api-key-value">{secret}</pre>
      <CopyButton target="new-api-key-value" label="Copy key" />
    </section>
  );
}
