import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import { daysLeftText, UsageBar } from "@/components/peers/peer_usage.tsx";
import { ValidationError } from "@/lib/errors.ts";
import type { LimitsInput, LimitsView } from "@/lib/tunnel/lifecycle/limits_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "A peer's expiry and traffic quota form", access: "operator" },
  POST: {
    summary: "Set a peer's expiry and traffic quota from the form",
    access: "operator",
    body: z.object({
      expires_at: formText(64),
      quota_mib: formText(32),
      period_days: formText(8),
    }),
  },
});

const FIELDS = ["expires_at", "quota_mib", "period_days"] as const;
const MIB = 1024 * 1024;

interface Data {
  peerId: string;
  name: string;
  limits: LimitsView;
  form: FormState;
}

function valuesOf(l: LimitsView): Record<string, string> {
  return {
    expires_at: l.expires_at ?? "",
    quota_mib: l.quota_bytes === null ? "" : String(l.quota_bytes / MIB),
    period_days: l.quota_period_days === null ? "" : String(l.quota_period_days),
  };
}

/** The form's values as the service's input: empty clears a limit. */
function inputOf(v: Record<string, string>): LimitsInput {
  const expires = v.expires_at.trim();
  const mib = v.quota_mib.trim();
  const days = v.period_days.trim();
  if (mib !== "" && !(Number(mib) > 0)) {
    throw new ValidationError(`Enter a number of MiB above 0, not "${mib}"`, "quota_mib");
  }
  if (days !== "" && !/^\d+$/.test(days)) {
    throw new ValidationError(`Enter a whole number of days, not "${days}"`, "period_days");
  }
  return {
    // A date alone is midnight UTC.
    expires_at: expires === ""
      ? null
      : /^\d{4}-\d{2}-\d{2}$/.test(expires)
      ? `${expires}T00:00:00Z`
      : expires,
    quota_bytes: mib === "" ? null : Math.round(Number(mib) * MIB),
    quota_period_days: days === "" ? null : Number(days),
  };
}

async function load(ctx: SignedInContext, form?: FormState): Promise<Data> {
  const { tunnels } = ctx.services;
  const peer = await tunnels.peers.view(ctx.params.id);
  const limits = await tunnels.limits.get(peer.id);
  ctx.state.title = `Expiry and quota of ${peer.name}`;
  return { peerId: peer.id, name: peer.name, limits, form: form ?? emptyForm(valuesOf(limits)) };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx));
  },
  async POST(ctx) {
    const values = ctx.body;
    try {
      await ctx.services.tunnels.limits.set(ctx.params.id, inputOf(values), ctx.auth.user.username);
      return ctx.redirect(`/peers/${ctx.params.id}`);
    } catch (err) {
      const { form, status } = formFailure(err, values, FIELDS, {
        aliases: { quota_bytes: "quota_mib", quota_period_days: "period_days" },
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
        <Field
          form={form}
          name="expires_at"
          label="Expires at"
          help="ISO 8601 time or a date (midnight UTC); empty: never. The peer is disabled then."
        />
        <Field
          form={form}
          name="quota_mib"
          label="Quota (MiB per period)"
          inputMode="numeric"
          help="Received plus sent; empty: no quota. Reaching it disables the peer until the next period."
        />
        <Field
          form={form}
          name="period_days"
          label="Period (days)"
          inputMode="numeric"
          help="Empty: the calendar month in UTC; N: every N days from now."
        />
        <FormActions label="Save">
          <a href={`/peers/${data.peerId}`}>Cancel</a>
        </FormActions>
      </PostForm>
    </Page>
  );
}
