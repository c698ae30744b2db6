import { z } from "zod";
import { noticeFor, NOTICES } from "@/components/notices.ts";
import { LimitsTable } from "@/components/peers/peer_usage.tsx";
import type { PeerLimitsBrief } from "@/lib/tunnel/lifecycle/limits_view.ts";
import { Page } from "@/components/page.tsx";
import { Pagination } from "@/components/pagination.tsx";
import { PEER_PLACE } from "@/components/tunnel_history/history_routes.tsx";
import { RecentlyDeleted } from "@/components/tunnel_history/recently_deleted.tsx";
import type { TunnelChange } from "@/lib/tunnel/history/history_repo.ts";
import { isFiltered, type PeerFilter, PeerFilters } from "@/components/peers/peer_filters.tsx";
import { peerRows } from "@/components/peers/peer_rows.ts";
import PeerTable, { type PeerTableProps } from "@/islands/PeerTable.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

/** One page holds every peer of a large site: the table is built for thousands of rows. */
export const PEERS_PAGE_SIZE = 1000;

const Blank = z.string().max(200).optional().transform((v) => v?.trim() || undefined);

export const meta = define.meta({
  GET: {
    summary: "Peers page: live table with search and filters",
    access: "viewer",
    query: z.object({
      q: Blank,
      interface_id: Blank,
      status: z.enum(["", "enabled", "disabled", "revoked"]).optional()
        .transform((v) => v || undefined),
      limit: z.coerce.number().int().min(1).max(PEERS_PAGE_SIZE).default(PEERS_PAGE_SIZE),
      offset: z.coerce.number().int().min(0).default(0),
      done: z.literal("deleted").optional(),
    }),
  },
});

interface Data {
  /** The listed peers that have an expiry or a quota. */
  limited: { id: string; name: string; limits: PeerLimitsBrief }[];
  table: Pick<PeerTableProps, "rows" | "ifaces">;
  /** Deleted peers, each linking to its history (kept; the deletion itself cannot be reverted). */
  deleted: TunnelChange[];
  total: number;
  limit: number;
  offset: number;
  now: number;
  interfaces: { id: string; name: string }[];
  filter: PeerFilter;
  canEdit: boolean;
  hostActive: boolean;
  notice: string | null;
}

function matches(p: PeerWithTelemetry, q: string): boolean {
  return p.name.toLowerCase().includes(q) || p.address.includes(q) ||
    p.interface_name.includes(q) || p.public_key.toLowerCase().startsWith(q);
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Peers";
    const { tunnels } = ctx.services;
    const { q, interface_id, status, limit, offset } = ctx.query;
    const filter = { interface_id, status };
    let peers: PeerWithTelemetry[];
    let total: number;
    if (q) {
      // Text search spans name, address, interface and key: filter here, page after.
      const all = (await tunnels.peers.list(filter)).filter((p) => matches(p, q.toLowerCase()));
      total = all.length;
      peers = all.slice(offset, offset + limit);
    } else {
      peers = await tunnels.peers.list({ ...filter, limit, offset });
      total = offset === 0 && peers.length < limit
        ? peers.length
        : await tunnels.peers.count(filter);
    }
    return page<Data>({
      limited: peers.flatMap((p) => p.limits ? [{ id: p.id, name: p.name, limits: p.limits }] : []),
      table: peerRows(peers),
      deleted: await tunnels.history.deleted("peer"),
      total,
      limit,
      offset,
      now: Date.now(),
      interfaces: (await tunnels.interfaces.list()).map((i) => ({ id: i.id, name: i.name })),
      filter: { q, interface_id, status },
      canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
      hostActive: tunnels.driver.active,
      notice: noticeFor(NOTICES.peers, ctx.query.done),
    });
  },
});

export default function Peers({ data, url }: PageProps<Data>) {
  const { filter } = data;
  const filtered = isFiltered(filter);
  const newHref = `/peers/new${filter.interface_id ? `?interface_id=${filter.interface_id}` : ""}`;
  const actions = data.canEdit && data.interfaces.length > 0 && (
    <a class="button-link primary" href={newHref}>New peer</a>
  );
  return (
    <Page title="Peers" actions={actions} notice={data.notice}>
      <PeerFilters filter={filter} interfaces={data.interfaces} />
      {!data.hostActive && (
        <p class="help">
          The host layer is off, so no handshake or transfer is read from WireGuard; figures appear
          here as soon as a host reports them.
        </p>
      )}
      {data.interfaces.length === 0
        ? (
          <p class="empty">
            Peers belong to an interface, and there is none yet.{" "}
            {data.canEdit && <a href="/tunnels#new-interface">Create an interface</a>}
          </p>
        )
        : (
          <PeerTable
            rows={data.table.rows}
            ifaces={data.table.ifaces}
            now={data.now}
            caption={`${data.total} ${data.total === 1 ? "peer" : "peers"}${
              filtered ? " matching the filter" : ""
            }, with live handshakes and transfer`}
            showInterface
            searchInput="peer-q"
            refreshOn={[{ type: "PeerChanged" }, { type: "InterfaceChanged" }]}
            empty={filtered ? "No peer matches this filter." : "No peers yet."}
          />
        )}
      <LimitsTable peers={data.limited} />
      <RecentlyDeleted
        deleted={data.deleted}
        base={PEER_PLACE.base}
        note="Keys are never kept: a deleted peer cannot be restored; its history is kept. Create it again to hand out a new configuration."
      />
      <Pagination
        url={url}
        total={data.total}
        limit={data.limit}
        offset={data.offset}
        prev="← Previous"
        next="Next →"
      />
    </Page>
  );
}
