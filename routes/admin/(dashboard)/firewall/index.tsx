import { z } from "zod";
import {
  FirewallBody,
  firewallFailure,
  firewallInput,
  NEW_RULE,
  NewRuleForm,
} from "@/components/firewall/firewall_form.tsx";
import { FirewallTable } from "@/components/firewall/firewall_table.tsx";
import { RULE_PLACE } from "@/components/tunnel_history/history_routes.tsx";
import { RecentlyDeleted } from "@/components/tunnel_history/recently_deleted.tsx";
import type { TunnelChange } from "@/lib/tunnel/history/history_repo.ts";
import { type InterfaceChoice, interfaceChoices } from "@/components/interface_choices.ts";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { pageRefusal } from "@/components/refusal.ts";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { FirewallRuleView } from "@/lib/tunnel/firewall/firewall_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState, formText } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Firewall page: Palisade's nftables rules in evaluation order",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.firewall) }),
  },
  POST: {
    summary: "Create a firewall rule, or enable or disable one, from the page's forms",
    access: "operator",
    body: z.discriminatedUnion("_action", [
      z.object({ _action: z.literal("create"), ...FirewallBody.shape }),
      z.object({ _action: z.enum(["enable", "disable"]), id: formText(64) }),
    ]),
  },
});

interface Data {
  rules: FirewallRuleView[];
  /** Deleted rules whose deletion can be reverted from their history. */
  deleted: TunnelChange[];
  interfaces: InterfaceChoice[];
  canEdit: boolean;
  form: FormState;
  /** The refusal of an enable or disable, shown above the table. */
  error: string | null;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Firewall";
  return {
    rules: await ctx.services.tunnels.firewall.list(),
    deleted: await ctx.services.tunnels.history.deleted("firewall_rule"),
    interfaces: await interfaceChoices(ctx),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    form: emptyForm(NEW_RULE),
    error: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.firewall, ctx.query.done) }));
  },
  async POST(ctx) {
    const { firewall } = ctx.services.tunnels;
    const actor = ctx.auth.user.username;
    const body = ctx.body;
    if (body._action === "create") {
      const { _action, ...values } = body;
      try {
        await firewall.create(firewallInput(values), actor);
        return ctx.redirect("/firewall?done=created");
      } catch (err) {
        const { form, status } = firewallFailure(err, values);
        return page(await load(ctx, { form }), { status });
      }
    }
    try {
      await firewall[body._action](body.id, actor);
      return ctx.redirect(`/firewall?done=${body._action}d`);
    } catch (err) {
      const { error, status } = pageRefusal(err);
      return page(await load(ctx, { error }), { status });
    }
  },
});

export default function Firewall({ data }: PageProps<Data>) {
  return (
    <Page title="Firewall" notice={data.notice} error={data.error}>
      <p class="muted">
        Rules of Palisade's own nftables table, in the order they are evaluated; the first that
        matches decides, and traffic no rule matches is accepted. Other tables are never touched.
      </p>
      <FirewallTable rules={data.rules} canEdit={data.canEdit} />
      <RecentlyDeleted deleted={data.deleted} base={RULE_PLACE.base} />
      {data.canEdit && <NewRuleForm form={data.form} interfaces={data.interfaces} />}
    </Page>
  );
}
