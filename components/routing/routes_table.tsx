import { Badge } from "@/components/badge.tsx";
import { formatTime } from "@/components/format.ts";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { RouteView } from "@/lib/tunnel/routes/route_service.ts";

const COLUMNS: Column[] = [
  { label: "Destination" },
  { label: "Gateway" },
  { label: "Interface" },
  { label: "Metric", num: true },
  { label: "Created" },
];

/** Every route, by destination then metric, live: fetched again when a route or interface changes. */
export function RoutesTable({ routes, canEdit }: { routes: RouteView[]; canEdit: boolean }) {
  return (
    <section aria-labelledby="routes">
      <div class="row spread">
        <h2 id="routes">Routes</h2>
        <LiveRegion
          region="routes-table"
          on={[{ type: "RouteChanged" }, { type: "InterfaceChanged" }]}
        />
      </div>
      <div id="routes-table">
        {routes.length === 0
          ? (
            <p class="empty">
              No route yet. {canEdit ? "Add one below." : "An operator can add one."}
            </p>
          )
          : (
            <Table
              columns={[
                ...COLUMNS,
                { label: <span class="visually-hidden">Actions</span> },
              ]}
            >
              {routes.map((r) => <RouteRow key={r.id} route={r} canEdit={canEdit} />)}
            </Table>
          )}
      </div>
    </section>
  );
}

function RouteRow({ route: r, canEdit }: { route: RouteView; canEdit: boolean }) {
  return (
    <tr data-route-id={r.id}>
      <th scope="row">
        <code>{r.destination}</code>
      </th>
      <td>
        <code>{r.gateway}</code>
      </td>
      <td>
        <a href={`/tunnels/${r.interface_id}`}>{r.interface_name}</a>
        {!r.active && (
          <>
            {" "}
            <Badge status="off" label="interface disabled" />
          </>
        )}
      </td>
      <td class="num">{r.metric}</td>
      <td>{formatTime(r.created_at)}</td>
      <td class="row-actions">
        {canEdit && (
          <a href={`/routes/${r.id}/delete`} class="danger">
            Delete<span class="visually-hidden">{` route to ${r.destination}`}</span>
          </a>
        )}
        <a href={`/routes/${r.id}/history`}>
          History<span class="visually-hidden">{` route to ${r.destination}`}</span>
        </a>
      </td>
    </tr>
  );
}
