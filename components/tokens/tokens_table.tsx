/**
 * The API tokens page's parts: the signed-in user's tokens, or every user's
 * with their owner for an administrator (what the token service lists: never
 * the token or its hash), the new-token form, and the raw token of a token
 * just created, shown once.
 */
import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { Table } from "@/components/table.tsx";
import CopyButton from "@/islands/CopyButton.tsx";
import type { TokenMeta } from "@/lib/auth/tokens.ts";
import { TOKEN_MAX_DAYS } from "@/lib/auth/tokens.ts";
import type { FormState } from "@/server/http/form.ts";
import { formText } from "@/server/http/form.ts";

/** The new-token form's fields as posted. */
export const TokenBody = z.object({ name: formText(200), expires_in_days: formText(20) });

const day = (iso: string | null) => iso ? iso.slice(0, 16).replace("T", " ") : "never";

/** The caller's tokens (every user's, with their owner, for `withOwner`), each with its revoke link. */
export function TokensTable(
  { tokens, withOwner = false }: { tokens: TokenMeta[]; withOwner?: boolean },
) {
  if (tokens.length === 0) {
    return <p class="muted">{withOwner ? "No user has API tokens." : "You have no API tokens."}</p>;
  }
  return (
    <Table
      class="tokens"
      columns={[
        { label: "Name" },
        ...(withOwner ? [{ label: "Owner" }] : []),
        { label: "Prefix" },
        { label: "Created" },
        { label: "Expires" },
        { label: "Last used" },
        { label: <span class="visually-hidden">Actions</span> },
      ]}
    >
      {tokens.map((t) => (
        <tr key={t.id} data-token-id={t.id}>
          <td>{t.name}</td>
          {withOwner && <td data-owner={t.username}>{t.username}</td>}
          <td>
            <code>{t.prefix}</code>
          </td>
          <td>{day(t.created_at)}</td>
          <td>{t.expired ? `expired ${day(t.expires_at)}` : day(t.expires_at)}</td>
          <td>{day(t.last_used_at)}</td>
          <td>
            <a href={`/tokens/${t.id}/revoke`}>Revoke</a>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The new-token form. */
export function NewTokenForm({ form }: { form: FormState }) {
  return (
    <FormSection id="new-token" heading="New API token" form={form} class="card form-grid">
      <Field form={form} name="name" label="Name" required placeholder="ci-deploy" />
      <Field
        form={form}
        name="expires_in_days"
        label="Lifetime in days"
        required
        inputMode="numeric"
        help={`1 to ${TOKEN_MAX_DAYS}. The token acts with your role until it expires or is revoked.`}
      />
      <FormActions label="Create token" />
    </FormSection>
  );
}

/** The raw token of the token just created: on this answer only, never on a later page. */
export function NewTokenSecret({ name, raw }: { name: string; raw: string }) {
  return (
    <section class="card stack" aria-labelledby="token-secret">
      <h2 id="token-secret">Token "{name}" created</h2>
      <p class="notice" role="alert">
        Copy it now: it will not be shown again. Only its hash is kept; a lost token must be revoked
        and replaced.
      </p>
      <pre id="new-token-value">{raw}</pre>
      <CopyButton target="new-token-value" label="Copy token" />
    </section>
  );
}
