import { formatCount, formatTime } from "@/components/format.ts";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { NetworkView } from "@/lib/tunnel/networks/network_service.ts";

const COLUMNS: Column[] = [
  { label: "Name" },
  { label: "Block" },
  { label: "Interface" },
  { label: "Utilization", num: true },
  { label: "Created" },
];

/** "3 / 254 (1.2 %)": allocated of usable addresses, with a share precise enough to move. */
export function utilization(n: Pick<NetworkView, "allocated" | "size">): string {
  const pct = n.size === 0 ? 0 : (n.allocated / n.size) * 100;
  const shown = pct === 0 || pct >= 10 ? Math.round(pct).toString() : pct.toFixed(1);
  return `${formatCount(n.allocated)} / ${formatCount(n.size)} (${shown} %)`;
}

/** The interface whose subnet a network is, linked, or "free". */
export function NetworkInterface({ network: n }: { network: NetworkView }) {
  return n.interface_id === null
    ? <span class="muted">free</span>
    : <a href={`/tunnels/${n.interface_id}`}>{n.interface_name}</a>;
}

/** Every network, by name, live: the table is fetched again when a network or a peer changes. */
export function NetworksTable({ networks }: { networks: NetworkView[] }) {
  return (
    <section aria-labelledby="networks">
      <div class="row spread">
        <h2 id="networks">Networks</h2>
        <LiveRegion
          region="networks-table"
          on={[{ type: "NetworkChanged" }, { type: "PeerChanged" }, { type: "InterfaceChanged" }]}
        />
      </div>
      <div id="networks-table">
        {networks.length === 0
          ? <p class="empty">No network yet. Every interface's subnet is one.</p>
          : (
            <Table columns={COLUMNS}>
              {networks.map((n) => (
                <tr key={n.id} data-network-id={n.id}>
                  <th scope="row">
                    <a href={`/networks/${n.id}`}>{n.name}</a>
                  </th>
                  <td>
                    <code>{n.cidr}</code>
                  </td>
                  <td>
                    <NetworkInterface network={n} />
                  </td>
                  <td class="num">{utilization(n)}</td>
                  <td>{formatTime(n.created_at)}</td>
                </tr>
              ))}
            </Table>
          )}
      </div>
    </section>
  );
}
