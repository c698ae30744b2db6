/**
 * The two-factor parts of the Security page (routes/admin/(dashboard)/account/security.tsx):
 * the recovery codes shown once, the enrolment waiting for its first code,
 * and making new recovery codes.
 */
import { Field } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { Enrolment } from "@/lib/auth/two_factor.ts";
import type { FormState } from "@/server/http/form.ts";

export function RecoveryCodes({ codes, renewed }: { codes: string[]; renewed?: boolean }) {
  return (
    <section aria-labelledby="recovery-codes" class="card stack">
      <h2 id="recovery-codes">{renewed ? "Your new recovery codes" : "Your recovery codes"}</h2>
      <p>
        {renewed ? "Your earlier recovery codes no longer work. " : "Two-factor sign-in is on. "}
        Keep these ten codes somewhere safe: each signs you in once when your app is not at hand.
        They are shown only now.
      </p>
      <ul class="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Pending({ e, form }: { e: Enrolment; form: FormState }) {
  return (
    <FormSection
      id="confirm-2fa"
      heading="Confirm with a first code"
      form={form}
      action="confirm"
      class="card form-grid"
    >
      <p>Scan this QR code with an authenticator app, then enter the six digits it shows.</p>
      <img
        class="qr"
        src={`data:image/svg+xml;base64,${btoa(e.qr_svg)}`}
        alt="QR code of the two-factor secret"
      />
      <p>
        Or type the secret by hand: <code data-secret>{e.secret}</code>
      </p>
      <Field
        form={form}
        name="code"
        label="Code"
        required
        inputMode="numeric"
        autocomplete="one-time-code"
      />
      <FormActions label="Turn two-factor sign-in on" />
    </FormSection>
  );
}

/** Ten new recovery codes after a current code from the app; the earlier ones stop working. */
export function RegenerateCodes({ form }: { form: FormState }) {
  return (
    <FormSection
      id="regenerate-codes"
      heading="New recovery codes"
      form={form}
      action="regenerate"
      class="card form-grid"
    >
      <p>
        Used some, or fear they were seen? Make ten new ones: the earlier codes stop working.
      </p>
      <Field
        form={form}
        name="code"
        idPrefix="regenerate"
        label="Code from your authenticator app"
        required
        inputMode="numeric"
        autocomplete="one-time-code"
      />
      <FormActions label="Make new recovery codes" />
    </FormSection>
  );
}
