import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { Enrolment, TwoFactorService, TwoFactorStatus } from "@/lib/auth/two_factor.ts";
import type { AuthUser } from "@/lib/auth/user.ts";
import type { PageProps, PageResult } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";
import { relyingParty } from "@/server/http/relying_party.ts";
import { type PasskeysData, PasskeysSection } from "@/components/account/passkeys_section.tsx";
import {
  Pending,
  RecoveryCodes,
  RegenerateCodes,
} from "@/components/account/two_factor_sections.tsx";
import { PASSKEY_NAME_MAX } from "@/lib/auth/passkey/passkeys.ts";
import { ForbiddenError, UnprocessableError } from "@/lib/errors.ts";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";

const Body = z.object({
  _action: z.enum([
    "enrol",
    "confirm",
    "disable",
    "regenerate",
    "passkey_add",
    "passkey_rename",
    "passkey_delete",
  ]),
  code: formText(64).optional(),
  /** Passkeys: the new one's name and the browser's answer (JSON), or the id to delete. */
  name: formText(PASSKEY_NAME_MAX).optional(),
  credential: z.string().max(16_384).optional(),
  id: z.string().max(64).optional(),
});

export const meta = define.meta({
  GET: {
    summary:
      "Security page: turn two-factor sign-in on or off, make new recovery codes, add or delete passkeys",
    access: "viewer",
    query: z.object({
      done: z.enum(["off", "passkey_added", "passkey_renamed", "passkey_deleted"]).optional(),
      delete: z.string().max(64).optional(),
      rename: z.string().max(64).optional(),
    }),
  },
  POST: {
    summary:
      "Start or confirm two-factor enrolment, turn it off, make new recovery codes, add or delete a passkey",
    access: "viewer",
    body: Body,
  },
});

interface Data {
  status: TwoFactorStatus;
  required: boolean;
  enrolment?: Enrolment;
  /** The recovery codes, on the one response that confirms enrolment or makes new ones. */
  recoveryCodes?: string[];
  /** True when `recoveryCodes` replace earlier ones. */
  renewed?: boolean;
  form: FormState;
  /** The form making new recovery codes (its refusal is shown there, not in the other forms). */
  regenerate?: FormState;
  notice?: string;
  passkeys: PasskeysData;
}

const NOTICES = {
  off: "Two-factor sign-in is off",
  passkey_added: "Passkey added",
  passkey_renamed: "Passkey renamed",
  passkey_deleted: "Passkey deleted",
} as const;

const TITLE = "Security";

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = TITLE;
    const notice = ctx.query.done && NOTICES[ctx.query.done];
    const passkeys = await passkeysData(ctx);
    passkeys.confirmDelete = passkeys.passkeys.find((p) => p.id === ctx.query.delete);
    passkeys.rename = passkeys.passkeys.find((p) => p.id === ctx.query.rename);
    return page<Data>({
      ...(await state(ctx.services.auth.twoFactor, ctx.auth.user)),
      form: emptyForm(),
      notice,
      passkeys,
    });
  },
  async POST(ctx) {
    ctx.state.title = TITLE;
    const twoFactor = ctx.services.auth.twoFactor;
    const user = ctx.auth.user;
    const code = ctx.body.code ?? "";
    if (ctx.body._action.startsWith("passkey_")) return await passkeyPost(ctx);
    try {
      if (ctx.body._action === "enrol") {
        await twoFactor.begin(user);
        return ctx.redirect("/account/security");
      }
      if (ctx.body._action === "disable") {
        await twoFactor.disable(user, code);
        return ctx.redirect("/account/security?done=off");
      }
      if (ctx.body._action === "regenerate") {
        const { recovery_codes } = await twoFactor.regenerateRecoveryCodes(user, code);
        return page<Data>({
          ...(await state(twoFactor, user)),
          form: emptyForm(),
          recoveryCodes: recovery_codes,
          renewed: true,
          passkeys: await passkeysData(ctx),
        });
      }
      const { recovery_codes } = await twoFactor.confirm(user, code);
      return page<Data>({
        ...(await state(ctx.services.auth.twoFactor, ctx.auth.user)),
        form: emptyForm(),
        recoveryCodes: recovery_codes,
        passkeys: await passkeysData(ctx),
      });
    } catch (err) {
      const { form, status } = formFailure(err, { code: "" }, ["code"]);
      const regenerating = ctx.body._action === "regenerate";
      return page<Data>({
        ...(await state(ctx.services.auth.twoFactor, ctx.auth.user)),
        form: regenerating ? emptyForm() : form,
        regenerate: regenerating ? form : undefined,
        passkeys: await passkeysData(ctx),
      }, { status });
    }
  },
});

type PostCtx = SignedInContext<z.infer<typeof Body>>;

async function passkeysData(ctx: SignedInContext): Promise<PasskeysData> {
  const { passkeys } = ctx.services.auth;
  return {
    passkeys: await passkeys.list(ctx.auth.user.id),
    options: await passkeys.registrationOptions(
      ctx.auth.user,
      relyingParty(ctx.services.config.webauthn, ctx.req),
    ),
  };
}

/** Adds or deletes a passkey; a refusal is shown in the passkeys section. */
async function passkeyPost(ctx: PostCtx): Promise<Response | PageResult<Data>> {
  const { passkeys } = ctx.services.auth;
  const user = ctx.auth.user;
  try {
    if (ctx.body._action === "passkey_delete") {
      await passkeys.remove(user, ctx.body.id ?? "");
      return ctx.redirect("/account/security?done=passkey_deleted");
    }
    const name = (ctx.body.name ?? "").trim();
    if (!name) throw new UnprocessableError("Name the passkey", { field: "name" });
    if (ctx.body._action === "passkey_rename") {
      await passkeys.rename(user, ctx.body.id ?? "", name);
      return ctx.redirect("/account/security?done=passkey_renamed");
    }
    const rp = relyingParty(ctx.services.config.webauthn, ctx.req);
    await passkeys.register(user, name, registration(ctx.body.credential), rp);
    return ctx.redirect("/account/security?done=passkey_added");
  } catch (err) {
    const { form, status } = formFailure(err, {}, []);
    return page<Data>({
      ...(await state(ctx.services.auth.twoFactor, user)),
      form: emptyForm(),
      passkeys: { ...(await passkeysData(ctx)), error: form.errors[""] },
    }, { status });
  }
}

/** The posted registration answer: malformed JSON is refused like a wrong one. */
function registration(json: string | undefined): RegistrationResponseJSON {
  try {
    const v = JSON.parse(json ?? "");
    if (v && typeof v === "object" && v.response && typeof v.response === "object") return v;
  } catch {
    // refused below
  }
  throw new ForbiddenError("The passkey could not be registered; try again", {
    field: "passkey",
    code: "passkey_invalid",
  });
}

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

export default function Security({ data }: PageProps<Data>) {
  const { status, form } = data;
  return (
    <Page title={TITLE}>
      {data.notice && <p class="notice" role="status">{data.notice}</p>}
      {data.required && !status.enabled && data.passkeys.passkeys.length === 0 && (
        <p class="notice" role="alert">
          Your role must use two-factor sign-in: turn it on or add a passkey to use the dashboard.
        </p>
      )}
      {data.recoveryCodes && <RecoveryCodes codes={data.recoveryCodes} renewed={data.renewed} />}
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
      {status.enabled && <RegenerateCodes form={data.regenerate ?? emptyForm()} />}
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
      <PasskeysSection data={data.passkeys} />
    </Page>
  );
}
