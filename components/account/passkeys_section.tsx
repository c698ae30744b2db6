/**
 * The Security page's passkeys: the list (name, when added and last used;
 * never a key or credential id), the confirmation of a deletion, and the
 * form adding one through the browser's WebAuthn (islands/PasskeyForm.tsx).
 */
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { formatTime } from "@/components/format.ts";
import { Table } from "@/components/table.tsx";
import PasskeyForm from "@/islands/PasskeyForm.tsx";
import { PASSKEY_NAME_MAX, type PasskeyInfo } from "@/lib/auth/passkey/passkeys.ts";

export interface PasskeysData {
  passkeys: PasskeyInfo[];
  options: PublicKeyCredentialCreationOptionsJSON;
  /** The passkey whose deletion waits for confirmation (`?delete=`). */
  confirmDelete?: PasskeyInfo;
  /** The passkey being renamed (`?rename=`). */
  rename?: PasskeyInfo;
  /** The refusal of the last passkey action. */
  error?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

function ConfirmDelete({ p }: { p: PasskeyInfo }) {
  return (
    <form method="post" class="card stack confirm" aria-labelledby="passkey-delete-question">
      <input type="hidden" name="_action" value="passkey_delete" />
      <input type="hidden" name="id" value={p.id} />
      <p id="passkey-delete-question" class="question">
        Delete passkey <strong>{p.name}</strong>?
      </p>
      <p class="muted">It no longer signs you in; the authenticator may still keep it.</p>
      <div class="row">
        <button type="submit" class="danger">Delete this passkey</button>
        <a href="/account/security" class="button-link">Cancel</a>
      </div>
    </form>
  );
}

function Rename({ p }: { p: PasskeyInfo }) {
  return (
    <form method="post" class="card stack" aria-label={`Rename passkey ${p.name}`}>
      <input type="hidden" name="_action" value="passkey_rename" />
      <input type="hidden" name="id" value={p.id} />
      <label>
        New name
        <input name="name" required maxlength={PASSKEY_NAME_MAX} value={p.name} />
      </label>
      <div class="row">
        <button type="submit" class="primary">Rename passkey</button>
        <a href="/account/security" class="button-link">Cancel</a>
      </div>
    </form>
  );
}

export function PasskeysSection({ data }: { data: PasskeysData }) {
  return (
    <section aria-labelledby="passkeys" class="stack">
      <h2 id="passkeys">Passkeys</h2>
      <p>
        A passkey signs you in without a password, or as the second step after it. Registering one
        turns that second step on.
      </p>
      {data.error && <p class="field-error" role="alert">{data.error}</p>}
      {data.confirmDelete && <ConfirmDelete p={data.confirmDelete} />}
      {data.rename && <Rename p={data.rename} />}
      {data.passkeys.length > 0 && (
        <Table
          label="Your passkeys"
          columns={[{ label: "Name" }, { label: "Added" }, { label: "Last used" }, {
            label: "Actions",
          }]}
        >
          {data.passkeys.map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td>{formatTime(iso(p.created_at))}</td>
              <td>{p.last_used_at ? formatTime(iso(p.last_used_at)) : "Never"}</td>
              <td class="row">
                <a href={`/account/security?rename=${encodeURIComponent(p.id)}`}>
                  Rename<span class="visually-hidden">{` passkey ${p.name}`}</span>
                </a>
                <a href={`/account/security?delete=${encodeURIComponent(p.id)}`}>
                  Delete<span class="visually-hidden">{` passkey ${p.name}`}</span>
                </a>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <div class="card">
        <PasskeyForm
          id="passkey-add"
          mode="register"
          options={data.options}
          action="/account/security"
          fields={{ _action: "passkey_add" }}
          label="Add a passkey"
          nameMax={PASSKEY_NAME_MAX}
        />
      </div>
    </section>
  );
}
