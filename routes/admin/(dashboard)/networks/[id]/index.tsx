import { z } from "zod";
import { ActionGroup } from "@/components/action_group.tsx";
import { AvailableAddresses, NetworkFacts } from "@/components/networks/network_detail.tsx";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { pageRefusal } from "@/components/refusal.ts";
import LiveRegion, { type LiveTrigger } from "@/islands/LiveRegion.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { NetworkAvailable, NetworkView } from "@/lib/tunnel/networks/network_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

/** Addresses a page shows: enough to pick one, few enough to read. */
const PAGE_SIZE = 50;

export const meta = define.meta({
  GET: {
    summary: "Network page: block, utilization, available addresses",
    access: "viewer",
    query: z.object({
      done: doneQuery(NOTICES.network),
      after: z.string().max(64).optional(),
    }),
  },
});

interface Data {
  network: NetworkView;
  available: NetworkAvailable;
  after: string | null;
  canEdit: boolean;
  notice: string | null;
  error: string | null;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { networks } = ctx.services.tunnels;
    const network = await networks.get(ctx.params.id);
    ctx.state.title = network.name;
    const data = {
      network,
      canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
      notice: noticeFor(NOTICES.network, ctx.query.done),
      error: null,
    };
    const after = ctx.query.after ?? null;
    try {
      const available = await networks.available(network.id, {
        limit: PAGE_SIZE,
        after: after ?? undefined,
      });
      return page<Data>({ ...data, available, after });
    } catch (err) {
      // An `after` outside the block (a link edited by hand): the first page, with the reason.
      const { error, status } = pageRefusal(err);
      const available = await networks.available(network.id, { limit: PAGE_SIZE });
      return page<Data>({ ...data, available, after: null, error }, { status });
    }
  },
});

/** What changes this page: the network itself, and the peers of its interface (utilization). */
function triggers(n: NetworkView): LiveTrigger[] {
  const on: LiveTrigger[] = [{ type: "NetworkChanged", where: { id: n.id } }];
  if (n.interface_id) on.push({ type: "PeerChanged", where: { interface_id: n.interface_id } });
  return on;
}

export default function Network({ data }: PageProps<Data>) {
  const n = data.network;
  return (
    <Page
      title={n.name}
      back={{ href: "/networks", label: "Networks" }}
      actions={<LiveRegion region="network-detail" on={triggers(n)} />}
      notice={data.notice}
      error={data.error}
    >
      <div id="network-detail">
        <NetworkFacts network={n} />
        {data.canEdit && (
          <ActionGroup label="Network actions">
            {n.interface_id === null
              ? <a class="button-link danger" href={`/networks/${n.id}/delete`}>Delete…</a>
              : (
                <p class="help">
                  The subnet of interface {n.interface_name}:{" "}
                  {n.origin === "interface" ? "deleted with it" : "freed when it is deleted"}.
                </p>
              )}
          </ActionGroup>
        )}
        <AvailableAddresses network={n} available={data.available} after={data.after} />
      </div>
    </Page>
  );
}
