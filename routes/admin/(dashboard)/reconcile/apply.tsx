import { confirmRoute } from "@/components/confirm_page.tsx";
import { countWords } from "@/components/reconcile/plan_view.tsx";
import type { ReconcilePlan } from "@/lib/tunnel/reconcile.ts";

/** The changes apply will make, one line each, grouped by interface. */
function Changes({ plan }: { plan: ReconcilePlan }) {
  return (
    <ul class="apply-list">
      {plan.items.map((i, k) => (
        <li key={k}>
          {i.interface ? `${i.interface}: ` : "Host: "}
          {i.action}
          {i.peer_name ? ` (peer ${i.peer_name})` : ""}
        </li>
      ))}
    </ul>
  );
}

const route = confirmRoute<ReconcilePlan>({
  title: "Apply reconcile",
  summary: {
    GET: "Confirm applying the stored state to the host: what will change",
    POST: "Apply the stored state to the host where it differs, then verify",
  },
  load: (ctx) => ctx.services.tunnels.reconciler.plan(),
  act: async (ctx) => {
    const result = await ctx.services.tunnels.reconciler.apply(ctx.auth.user.username);
    const done = !result.host_active
      ? "host_off"
      : result.applied.length === 0
      ? "nothing"
      : result.verified
      ? "applied"
      : "unverified";
    return `/reconcile?done=${done}`;
  },
  text: (plan) => ({
    question: !plan.host_active
      ? "The host layer is off: there is nothing to apply."
      : plan.items.length === 0
      ? "The host already matches the stored state: there is nothing to apply."
      : (
        <>
          Apply the stored state to the host? {countWords(plan.items)}.
        </>
      ),
    details: plan.host_active && plan.items.length > 0 && <Changes plan={plan} />,
    consequence: plan.host_active && plan.items.length > 0 &&
      "Only what differs is changed: peers that match keep their sessions and counters. The host is read again afterwards to verify.",
    confirmLabel: "Apply to the host",
    cancelHref: "/reconcile",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
