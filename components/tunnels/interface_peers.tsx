import PeerTable, { type PeerTableProps } from "@/islands/PeerTable.tsx";
import type { InterfaceView } from "@/lib/tunnel/interface_service.ts";

/** The live table of an interface's peers, with their summed transfer. */
export function InterfacePeers(
  { iface, table, now, canEdit }: {
    iface: InterfaceView;
    table: Pick<PeerTableProps, "rows" | "ifaces">;
    now: number;
    canEdit: boolean;
  },
) {
  return (
    <section aria-labelledby="peers">
      <div class="row spread">
        <h2 id="peers">Peers</h2>
        {canEdit && (
          <a class="button-link" href={`/peers/new?interface_id=${iface.id}`}>
            Add peer
          </a>
        )}
      </div>
      <PeerTable
        rows={table.rows}
        ifaces={table.ifaces}
        now={now}
        caption={`Peers of ${iface.name}, with live handshakes and transfer`}
        showInterface={false}
        totals
        refreshOn={[
          { type: "PeerChanged", where: { interface_id: iface.id } },
          { type: "InterfaceChanged", where: { id: iface.id } },
        ]}
        empty={`${iface.name} has no peers yet.`}
      />
    </section>
  );
}
