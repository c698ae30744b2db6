import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";

export interface PasskeyFormProps {
  /** "register": navigator.credentials.create(); "login": navigator.credentials.get(). */
  mode: "register" | "login";
  /** The options the server generated (their challenge is signed and single-use). */
  // deno-lint-ignore no-explicit-any
  options: any;
  action: string;
  /** Hidden fields posted with the credential (`_action`, `next`, the ticket…). */
  fields: Record<string, string>;
  label: string;
  /** Registration: ask for the passkey's name (maximum length). */
  nameMax?: number;
  id: string;
}

/**
 * A form posting a passkey ceremony's result as the `credential` field:
 * nothing until hydrated (without script there is no WebAuthn), then a
 * button that asks the browser for a new passkey or an assertion and posts
 * what it answers. A cancelled or failed ceremony is said, not posted.
 */
export default function PasskeyForm(props: PasskeyFormProps) {
  const ready = useSignal(false);
  const said = useSignal("");
  useEffect(() => {
    ready.value = typeof PublicKeyCredential === "function";
    if (!ready.value) said.value = "This browser does not offer passkeys.";
  }, []);
  if (!ready.value) return said.value ? <p class="help">{said.value}</p> : null;

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    said.value = "Waiting for the passkey…";
    try {
      const answer = props.mode === "register"
        ? await startRegistration({ optionsJSON: props.options })
        : await startAuthentication({ optionsJSON: props.options });
      (form.elements.namedItem("credential") as HTMLInputElement).value = JSON.stringify(answer);
      form.submit();
    } catch (err) {
      said.value = `The passkey was not used: ${err instanceof Error ? err.message : String(err)}`;
    }
  };
  const status = `${props.id}-status`;
  return (
    <form method="post" action={props.action} class="stack" onSubmit={submit}>
      {Object.entries(props.fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="credential" value="" />
      {props.nameMax && (
        <label>
          Passkey name
          <input
            name="name"
            required
            maxlength={props.nameMax}
            placeholder="e.g. Laptop"
            aria-describedby={status}
          />
        </label>
      )}
      <button type="submit" id={props.id}>{props.label}</button>
      <span id={status} role="status" class="help">{said.value}</span>
    </form>
  );
}
