import { Badge } from "@/components/badge.tsx";
import { oneClick, settingsOrAction } from "@/components/detail_page.ts";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import {
  type ConfigChoices,
  ConfigChoicesQuery,
  resolveChoices,
} from "@/components/peers/config_choices.tsx";
import { ConfigSection } from "@/components/peers/config_section.tsx";
import { PeerFacts } from "@/components/peers/peer_facts.tsx";
import { PeerManage } from "@/components/peers/peer_manage.tsx";
import { LimitsSummary } from "@/components/peers/peer_usage.tsx";
import type { LimitsView } from "@/lib/tunnel/lifecycle/limits_service.ts";
import { peerRows } from "@/components/peers/peer_rows.ts";
import {
  PeerSettingsBody,
  peerSettingsFailure,
  peerSettingsOf,
  postedValues,
  savePeerSettings,
} from "@/components/peers/peer_settings_form.tsx";
import PeerTable, { type PeerTableProps } from "@/islands/PeerTable.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { ClientProfile } from "@/lib/tunnel/client_profiles.ts";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Peer page: live state, configuration, settings",
    access: "viewer",
    query: ConfigChoicesQuery.extend({ done: doneQuery(NOTICES.peer) }),
  },
  POST: {
    summary: "Change a peer from the page's forms",
    access: "operator",
    body: settingsOrAction(PeerSettingsBody, ["enable", "disable"]),
  },
});

interface Data {
  peer: PeerWithTelemetry;
  limits: LimitsView;
  table: Pick<PeerTableProps, "rows" | "ifaces">;
  now: number;
  canEdit: boolean;
  /** The server's public host is set: configurations can be rendered. */
  endpointReady: boolean;
  form: FormState;
  /** The configuration's choices from the query, as typed and as resolved. */
  choices: ConfigChoices;
  choicesForm: FormState;
  profile: ClientProfile | null;
  actionError: string | null;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  const { tunnels, settings } = ctx.services;
  const peer = await tunnels.peers.get(ctx.params.id);
  ctx.state.title = peer.name;
  const ep = await settings.serverEndpoint();
  const limits = await tunnels.limits.get(peer.id);
  return {
    peer,
    limits,
    table: peerRows([peer]),
    now: Date.now(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    endpointReady: ep.enabled && !!ep.host,
    form: emptyForm(peerSettingsOf(peer, limits)),
    choices: {},
    choicesForm: emptyForm(),
    profile: null,
    actionError: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { done, ...choices } = ctx.query;
    const { profile, form, status } = resolveChoices(ctx, choices);
    const notice = noticeFor(NOTICES.peer, done);
    return page(await load(ctx, { notice, choices, choicesForm: form, profile }), { status });
  },
  async POST(ctx) {
    const body = ctx.body;
    if (body._action === "update") {
      const { _action, ...rest } = body;
      try {
        return ctx.redirect(await savePeerSettings(ctx, rest));
      } catch (err) {
        const { form, status } = peerSettingsFailure(err, postedValues(rest));
        return page(await load(ctx, { form }), { status });
      }
    }
    const action = body._action;
    const { peers } = ctx.services.tunnels;
    const id = ctx.params.id;
    return oneClick(
      ctx,
      () => peers[action](id, ctx.auth.user.username),
      `/peers/${id}?done=${action}d`,
      (actionError) => load(ctx, { actionError }),
    );
  },
});

export default function Peer({ data }: PageProps<Data>) {
  const { peer } = data;
  return (
    <Page
      title={peer.name}
      back={{ href: "/peers", label: "Peers" }}
      actions={<Badge status={peer.status} />}
      notice={data.notice}
    >
      <ConfigSection
        peer={peer}
        canEdit={data.canEdit}
        endpointReady={data.endpointReady}
        choices={data.choices}
        form={data.choicesForm}
        profile={data.profile}
      />
      <section aria-labelledby="live">
        <h2 id="live">Live state</h2>
        <PeerTable
          rows={data.table.rows}
          ifaces={data.table.ifaces}
          now={data.now}
          caption="Latest handshake and transfer"
          showInterface
          empty=""
          refreshOn={[
            { type: "PeerChanged", where: { id: peer.id } },
            { type: "InterfaceChanged", where: { id: peer.interface_id } },
          ]}
        />
      </section>
      <PeerFacts peer={peer} />
      <LimitsSummary peerId={peer.id} limits={data.limits} canEdit={data.canEdit} />
      <p>
        <a class="button-link" href={`/peers/${peer.id}/history`}>History</a>
      </p>
      {data.canEdit && <PeerManage peer={peer} form={data.form} actionError={data.actionError} />}
    </Page>
  );
}
