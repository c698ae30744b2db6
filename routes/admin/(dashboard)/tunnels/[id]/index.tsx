import { z } from "zod";
import { Badge } from "@/components/badge.tsx";
import { oneClick, settingsOrAction } from "@/components/detail_page.ts";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { peerRows } from "@/components/peers/peer_rows.ts";
import {
  InterfaceBody,
  interfaceFailure,
  InterfaceSettingsForm,
  interfaceSettingsOf,
  saveInterfaceSettings,
} from "@/components/tunnels/interface_form.tsx";
import { InterfacePeers } from "@/components/tunnels/interface_peers.tsx";
import { InterfaceState } from "@/components/tunnels/interface_state.tsx";
import type { PeerTableProps } from "@/islands/PeerTable.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { InterfaceStatus, InterfaceView } from "@/lib/tunnel/interface_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

/** The `?done=` of each one-click action. */
const ACTION_DONE = { enable: "enabled", disable: "disabled", restart: "restarted" } as const;

export const meta = define.meta({
  GET: {
    summary: "Interface page: status, peers, settings",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.tunnel) }),
  },
  POST: {
    summary: "Change an interface from the page's forms",
    access: "operator",
    body: settingsOrAction(InterfaceBody, ["enable", "disable", "restart"]),
  },
});

interface Data {
  iface: InterfaceView;
  status: InterfaceStatus;
  table: Pick<PeerTableProps, "rows" | "ifaces">;
  now: number;
  canEdit: boolean;
  form: FormState;
  /** Error of enable/disable/restart, shown beside those buttons. */
  actionError: string | null;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  const { tunnels } = ctx.services;
  const id = ctx.params.id;
  const iface = await tunnels.interfaces.get(id);
  ctx.state.title = iface.name;
  const [status, peers] = await Promise.all([
    tunnels.interfaces.status(id),
    tunnels.peers.list({ interface_id: id }),
  ]);
  return {
    iface,
    status,
    table: peerRows(peers),
    now: Date.now(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    form: emptyForm(interfaceSettingsOf(iface)),
    actionError: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.tunnel, ctx.query.done) }));
  },
  async POST(ctx) {
    const body = ctx.body;
    if (body._action === "update") {
      const { _action, ...values } = body;
      try {
        return ctx.redirect(await saveInterfaceSettings(ctx, values));
      } catch (err) {
        const { form, status } = interfaceFailure(err, values);
        return page(await load(ctx, { form }), { status });
      }
    }
    const action = body._action;
    const { interfaces } = ctx.services.tunnels;
    const id = ctx.params.id;
    return oneClick(
      ctx,
      () => interfaces[action](id, ctx.auth.user.username),
      `/tunnels/${id}?done=${ACTION_DONE[action]}`,
      (actionError) => load(ctx, { actionError }),
    );
  },
});

export default function Tunnel({ data }: PageProps<Data>) {
  const { iface } = data;
  return (
    <Page
      title={iface.name}
      back={{ href: "/tunnels", label: "Tunnels" }}
      actions={<Badge status={iface.enabled ? "enabled" : "disabled"} />}
      notice={data.notice}
    >
      <InterfaceState
        iface={iface}
        status={data.status}
        canEdit={data.canEdit}
        actionError={data.actionError}
      />
      <InterfacePeers iface={iface} table={data.table} now={data.now} canEdit={data.canEdit} />
      {data.canEdit && <InterfaceSettingsForm form={data.form} name={iface.name} />}
    </Page>
  );
}
