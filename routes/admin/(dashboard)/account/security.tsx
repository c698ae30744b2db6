import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { Enrolment, TwoFactorService, TwoFactorStatus } from "@/lib/auth/two_factor.ts";
import type { AuthUser } from "@/lib/auth/user.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

const Body = z.object({
  _action: z.enum(["enrol", "confirm", "disable"]),
  code: formText(64).optional(),
});

export const meta = define.meta({
  GET: {
    summary: "Security page: turn two-factor sign-in on or off",
    access: "viewer",
    query: z.object({ done: z.enum(["off"]).optional() }),
  },
  POST: {
    summary: "Start or confirm two-factor enrolment, or turn it off, from the form",
    access: "viewer",
    body: Body,
  },
});

interface Data {
  status: TwoFactorStatus;
  required: boolean;
  enrolment?: Enrolment;
  /** The recovery codes, on the one response that confirms enrolment. */
  recoveryCodes?: string[];
  form: FormState;
  notice?: string;
}

const TITLE = "Security";

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = TITLE;
    const notice = ctx.query.done === "off" ? "Two-factor sign-in is off" : undefined;
    return page<Data>({
      ...(await state(ctx.services.auth.twoFactor, ctx.auth.user)),
      form: emptyForm(),
      notice,
    });
  },
  async POST(ctx) {
    ctx.state.title = TITLE;
    const twoFactor = ctx.services.auth.twoFactor;
    const user = ctx.auth.user;
    const code = ctx.body.code ?? "";
    try {
      if (ctx.body._action === "enrol") {
        await twoFactor.begin(user);
        return ctx.redirect("/account/security");
      }
      if (ctx.body._action === "disable") {
        await twoFactor.disable(user, code);
        return ctx.redirect("/account/security?done=off");
      }
      const { recovery_codes } = await twoFactor.confirm(user, code);
      return page<Data>({
        ...(await state(ctx.services.auth.twoFactor, ctx.auth.user)),
        form: emptyForm(),
        recoveryCodes: recovery_codes,
      });
    } catch (err) {
      const { form, status } = formFailure(err, { code: "" }, ["code"]);
      return page<Data>({ ...(await state(ctx.services.auth.twoFactor, ctx.auth.user)), form }, {
        status,
      });
    }
  },
});

async function state(
  twoFactor: TwoFactorService,
  user: AuthUser,
): Promise<Pick<Data, "status" | "required" | "enrolment">> {
  return {
    status: await twoFactor.status(user.id),
    required: await twoFactor.requiredFor(user),
    enrolment: await twoFactor.pendingEnrolment(user),
  };
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="recovery-codes" class="card stack">
      <h2 id="recovery-codes">Your recovery codes</h2>
      <p>
        Two-factor sign-in is on. Keep these ten codes somewhere safe: each signs you in once when
        your app is not at hand. They are shown only now.
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

function Pending({ e, form }: { e: Enrolment; form: FormState }) {
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

export default function Security({ data }: PageProps<Data>) {
  const { status, form } = data;
  return (
    <Page title={TITLE}>
      {data.notice && <p class="notice" role="status">{data.notice}</p>}
      {data.required && !status.enabled && (
        <p class="notice" role="alert">
          Your role must use two-factor sign-in: turn it on to use the dashboard.
        </p>
      )}
      {data.recoveryCodes && <RecoveryCodes codes={data.recoveryCodes} />}
      {status.enabled && (
        <FormSection
          id="disable-2fa"
          heading="Two-factor sign-in is on"
          form={form}
          action="disable"
          class="card form-grid"
        >
          <p>{status.recovery_codes_left} of 10 recovery codes left.</p>
          <Field
            form={form}
            name="code"
            label="Code or recovery code"
            required
            autocomplete="one-time-code"
          />
          <FormActions label="Turn two-factor sign-in off" />
        </FormSection>
      )}
      {data.enrolment && <Pending e={data.enrolment} form={form} />}
      {!status.enabled && (
        <FormSection
          id="enrol-2fa"
          heading="Two-factor sign-in"
          form={emptyForm()}
          action="enrol"
          class="card form-grid"
        >
          <p>
            {status.pending
              ? "Lost the QR code? Start again with a new secret."
              : "Sign in with a code from an authenticator app as well as your password."}
          </p>
          <FormActions label={status.pending ? "Start again" : "Set up two-factor sign-in"} />
        </FormSection>
      )}
    </Page>
  );
}
