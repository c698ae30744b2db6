import { Badge } from "@/components/badge.tsx";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { InterfaceView } from "@/lib/tunnel/interface_service.ts";

const COLUMNS: Column[] = [
  { label: "Name" },
  { label: "Address" },
  { label: "Port", num: true },
  { label: "MTU", num: true },
  { label: "Peers", num: true },
  { label: "State" },
];

/** The WireGuard interfaces, each linking to its page and its peers. */
export function InterfacesTable(
  { interfaces, canEdit }: { interfaces: InterfaceView[]; canEdit: boolean },
) {
  return (
    <section aria-labelledby="interfaces">
      <div class="row spread">
        <h2 id="interfaces">Interfaces</h2>
        <LiveRegion
          region="interfaces-table"
          on={[{ type: "InterfaceChanged" }, { type: "PeerChanged" }]}
        />
      </div>
      <div id="interfaces-table">
        {interfaces.length === 0
          ? (
            <p class="empty">
              No WireGuard interface yet.{" "}
              {canEdit ? "Create the first one below." : "An operator can create one."}
            </p>
          )
          : (
            <Table columns={COLUMNS}>
              {interfaces.map((i) => <InterfaceRow key={i.id} iface={i} />)}
            </Table>
          )}
      </div>
    </section>
  );
}

function InterfaceRow({ iface: i }: { iface: InterfaceView }) {
  return (
    <tr>
      <th scope="row">
        <a href={`/tunnels/${i.id}`}>{i.name}</a>
      </th>
      <td>
        <code>{i.address_v4}</code>
      </td>
      <td class="num">{i.listen_port ?? "—"}</td>
      <td class="num">{i.mtu}</td>
      <td class="num">
        <a href={`/peers?interface_id=${i.id}`}>{i.peer_count}</a>
      </td>
      <td>
        <Badge status={i.enabled ? "enabled" : "disabled"} />
      </td>
    </tr>
  );
}
