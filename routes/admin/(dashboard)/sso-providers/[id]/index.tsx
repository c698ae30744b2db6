import { Page } from "@/components/page.tsx";
import {
  PROVIDER_FIELDS,
  ProviderBody,
  ProviderForm,
  providerInput,
  providerValues,
} from "@/components/sso/provider_parts.tsx";
import type { ProviderInfo } from "@/lib/auth/oidc/providers.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { redirectUri } from "@/server/http/sso.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "A sign-in provider's settings", access: "administrator" },
  POST: {
    summary: "Save a sign-in provider's settings; an empty client secret keeps the stored one",
    access: "administrator",
    body: ProviderBody.extend({ _action: formText(20) }),
  },
});

interface Data {
  provider: ProviderInfo;
  form: FormState;
  callback: string;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  const provider = await ctx.services.sso.providers.get(ctx.params.id);
  ctx.state.title = provider.display_name;
  return {
    provider,
    form: emptyForm(providerValues(provider)),
    callback: redirectUri(ctx),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx));
  },
  async POST(ctx) {
    const { _action: _, ...values } = ctx.body;
    try {
      await ctx.services.sso.providers.update(
        ctx.auth.user.username,
        ctx.params.id,
        providerInput({ ...values, id: ctx.params.id }),
      );
      return page(await load(ctx, { notice: "Provider saved." }));
    } catch (err) {
      const { form, status } = formFailure(err, { ...values, client_secret: "" }, PROVIDER_FIELDS);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function SsoProvider({ data }: PageProps<Data>) {
  const p = data.provider;
  return (
    <Page title={p.display_name} notice={data.notice}>
      <p>
        Provider <code>{p.id}</code>, {p.enabled ? "enabled" : "disabled"}. The sign-in page offers
        {" "}
        <a href={`/sso/${p.id}`}>Sign in with {p.display_name}</a> while it is enabled.
      </p>
      <ProviderForm form={data.form} editing callback={data.callback} />
      <p>
        <a href="/sso-providers">All providers</a> ·{" "}
        <a href={`/sso-providers/${p.id}/delete`}>
          Delete
        </a>
      </p>
    </Page>
  );
}
