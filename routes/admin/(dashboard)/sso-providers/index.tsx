import { ActionButton } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import {
  NEW_PROVIDER_VALUES,
  PROVIDER_FIELDS,
  ProviderBody,
  ProviderForm,
  providerInput,
  ProvidersTable,
} from "@/components/sso/provider_parts.tsx";
import type { ProviderInfo } from "@/lib/auth/oidc/providers.ts";
import { DomainError, ValidationError } from "@/lib/errors.ts";
import { mapError } from "@/server/http/errors.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { redirectUri } from "@/server/http/sso.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Single sign-on page: the providers, the new-provider form, password sign-in",
    access: "administrator",
  },
  POST: {
    summary: "Create a provider (`_action` create) or turn local password sign-in on or off",
    access: "administrator",
    body: ProviderBody.extend({ _action: formText(20) }),
  },
});

interface Data {
  providers: ProviderInfo[];
  form: FormState;
  password: { stored: boolean; forced: boolean };
  callback: string;
  notice: string | null;
  /** A refused password switch. */
  switchError: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Single sign-on";
  const { providers } = ctx.services.sso;
  return {
    providers: await providers.list(),
    form: emptyForm(NEW_PROVIDER_VALUES),
    password: { stored: await providers.localPasswordStored(), forced: providers.passwordForced },
    callback: redirectUri(ctx),
    notice: null,
    switchError: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx));
  },
  async POST(ctx) {
    const { providers } = ctx.services.sso;
    const actor = ctx.auth.user.username;
    const { _action, ...values } = ctx.body;
    if (_action === "password_on" || _action === "password_off") {
      try {
        await providers.setLocalPassword(actor, _action === "password_on");
        const notice = `Local password sign-in turned ${_action === "password_on" ? "on" : "off"}.`;
        return page(await load(ctx, { notice }));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const { status, message } = mapError(err);
        return page(await load(ctx, { switchError: message }), { status });
      }
    }
    if (_action !== "create") throw new ValidationError(`Unknown action "${_action}"`, "_action");
    try {
      const made = await providers.create(actor, providerInput(values));
      return ctx.redirect(`/sso-providers/${made.id}`);
    } catch (err) {
      const { form, status } = formFailure(err, values, PROVIDER_FIELDS);
      return page(await load(ctx, { form }), { status });
    }
  },
});

function PasswordSwitch({ data }: { data: Data }) {
  const { stored, forced } = data.password;
  return (
    <section aria-labelledby="password-sign-in" class="card stack">
      <h2 id="password-sign-in">Local password sign-in</h2>
      <p>
        {stored
          ? "On: users may sign in with a username and password."
          : "Off: only single sign-on."}
        {forced && " PALISADE_SSO_FORCE_PASSWORD_LOGIN keeps it on regardless."}
      </p>
      {data.switchError && <p class="field-error" role="alert">{data.switchError}</p>}
      {stored
        ? <ActionButton name="password_off" label="Turn password sign-in off" />
        : <ActionButton name="password_on" label="Turn password sign-in on" />}
    </section>
  );
}

export default function SsoProviders({ data }: PageProps<Data>) {
  return (
    <Page title="Single sign-on" notice={data.notice}>
      <p>
        OpenID Connect providers whose users may sign in to the dashboard, with the role their claim
        maps to. Users are created on their first sign-in. See docs/sso.md.
      </p>
      <ProvidersTable providers={data.providers} />
      <PasswordSwitch data={data} />
      <ProviderForm form={data.form} editing={false} callback={data.callback} />
    </Page>
  );
}
