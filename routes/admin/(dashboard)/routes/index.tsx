import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { type InterfaceChoice, interfaceChoices } from "@/components/interface_choices.ts";
import {
  NewRouteForm,
  RouteBody,
  routeFailure,
  routeInput,
} from "@/components/routing/route_form.tsx";
import { RoutesTable } from "@/components/routing/routes_table.tsx";
import { ROUTE_PLACE } from "@/components/tunnel_history/history_routes.tsx";
import { RecentlyDeleted } from "@/components/tunnel_history/recently_deleted.tsx";
import type { TunnelChange } from "@/lib/tunnel/history/history_repo.ts";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { RouteView } from "@/lib/tunnel/routes/route_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Routes page: static routes Palisade keeps on the host",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.routes) }),
  },
  POST: {
    summary: "Create a route from the form",
    access: "operator",
    body: RouteBody,
  },
});

interface Data {
  routes: RouteView[];
  /** Deleted routes whose deletion can be reverted from their history. */
  deleted: TunnelChange[];
  interfaces: InterfaceChoice[];
  canEdit: boolean;
  form: FormState;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Routes";
  const { tunnels } = ctx.services;
  return {
    routes: await tunnels.routes.list(),
    deleted: await tunnels.history.deleted("route"),
    interfaces: await interfaceChoices(ctx),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    form: emptyForm(),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.routes, ctx.query.done) }));
  },
  async POST(ctx) {
    const values = ctx.body;
    try {
      await ctx.services.tunnels.routes.create(routeInput(values), ctx.auth.user.username);
      return ctx.redirect("/routes?done=created");
    } catch (err) {
      const { form, status } = routeFailure(err, values);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Routes({ data }: PageProps<Data>) {
  return (
    <Page title="Routes" notice={data.notice}>
      <p class="muted">
        Static IPv4 routes through the managed interfaces, written with Palisade's protocol tag; a
        route whose interface is disabled is kept but off the host.
      </p>
      <RoutesTable routes={data.routes} canEdit={data.canEdit} />
      <RecentlyDeleted deleted={data.deleted} base={ROUTE_PLACE.base} />
      {data.canEdit && (data.interfaces.length === 0
        ? (
          <p class="empty">
            A route goes through an interface. <a href="/tunnels#new-interface">Create one</a>{" "}
            first.
          </p>
        )
        : <NewRouteForm form={data.form} interfaces={data.interfaces} />)}
    </Page>
  );
}
