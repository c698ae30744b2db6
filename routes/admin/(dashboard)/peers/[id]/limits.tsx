import { z } from "zod";
import { Page } from "@/components/page.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import {
  LIMITS_ALIASES,
  LIMITS_FIELD_NAMES,
  LIMITS_FIELDS,
  LimitsFields,
  limitsInputOf,
  limitsValuesOf,
} from "@/components/peers/limits_fields.tsx";
import { daysLeftText, UsageBar } from "@/components/peers/peer_usage.tsx";
import type { LimitsView } from "@/lib/tunnel/lifecycle/limits_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "A peer's expiry and traffic quota form", access: "operator" },
  POST: {
    summary: "Set a peer's expiry and traffic quota from the form",
    access: "operator",
    body: z.object(LIMITS_FIELDS),
  },
});

interface Data {
  peerId: string;
  name: string;
  limits: LimitsView;
  form: FormState;
}

async function load(ctx: SignedInContext, form?: FormState): Promise<Data> {
  const { tunnels } = ctx.services;
  const peer = await tunnels.peers.view(ctx.params.id);
  const limits = await tunnels.limits.get(peer.id);
  ctx.state.title = `Expiry and quota of ${peer.name}`;
  return {
    peerId: peer.id,
    name: peer.name,
    limits,
    form: form ?? emptyForm(limitsValuesOf(limits)),
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx));
  },
  async POST(ctx) {
    const values = ctx.body;
    try {
      const input = limitsInputOf(values);
      await ctx.services.tunnels.limits.set(ctx.params.id, input, ctx.auth.user.username);
      return ctx.redirect(`/peers/${ctx.params.id}`);
    } catch (err) {
      const { form, status } = formFailure(err, values, LIMITS_FIELD_NAMES, {
        aliases: LIMITS_ALIASES,
      });
      return page(await load(ctx, form), { status });
    }
  },
});

export default function PeerLimits({ data }: PageProps<Data>) {
  const { limits, form } = data;
  return (
    <Page
      title={`Expiry and quota of ${data.name}`}
      back={{ href: `/peers/${data.peerId}`, label: data.name }}
    >
      <p>
        Used this period: <UsageBar limits={limits} />; {daysLeftText(limits)}.
      </p>
      <PostForm form={form} class="card form-grid" label="Expiry and quota">
        <LimitsFields form={form} />
        <FormActions label="Save">
          <a href={`/peers/${data.peerId}`}>Cancel</a>
        </FormActions>
      </PostForm>
    </Page>
  );
}
