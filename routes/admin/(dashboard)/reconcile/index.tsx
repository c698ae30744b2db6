import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { PlanDiff, PlanSummary } from "@/components/reconcile/plan_view.tsx";
import { pageRefusal } from "@/components/refusal.ts";
import { formatTime } from "@/components/format.ts";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { ReconcilePlan } from "@/lib/tunnel/reconcile.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Reconcile page: stored state against the host, interface by interface",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.reconcile) }),
  },
});

interface Data {
  /** null when reading the host failed (the refusal says why). */
  plan: ReconcilePlan | null;
  canApply: boolean;
  notice: string | null;
  error: string | null;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Reconcile";
    const base = {
      canApply: roleAtLeast(ctx.auth.user.role, "operator"),
      notice: noticeFor(NOTICES.reconcile, ctx.query.done),
    };
    try {
      const plan = await ctx.services.tunnels.reconciler.plan();
      return page<Data>({ ...base, plan, error: null });
    } catch (err) {
      // A host read that failed (HostError): said on the page, with its status.
      const { error, status } = pageRefusal(err);
      return page<Data>({ ...base, plan: null, error }, { status });
    }
  },
});

export default function Reconcile({ data }: PageProps<Data>) {
  const { plan } = data;
  const drift = plan !== null && plan.host_active && plan.items.length > 0;
  return (
    <Page
      title="Reconcile"
      notice={data.notice}
      error={data.error}
      actions={
        <>
          <a href="/reconcile">Refresh</a>
          {data.canApply && drift && (
            <a href="/reconcile/apply" class="button-link primary">Apply…</a>
          )}
        </>
      }
    >
      <p class="muted">
        What the store says each interface, peer, route and firewall rule should be, against what
        the host has now. Apply changes only what differs: unchanged peers keep their sessions.
      </p>
      {plan && (
        <>
          <PlanSummary plan={plan} />
          <p class="muted">Read from the host {formatTime(plan.generated_at)}.</p>
          {drift && <PlanDiff items={plan.items} />}
        </>
      )}
    </Page>
  );
}
