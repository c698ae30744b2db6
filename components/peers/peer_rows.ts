import type { PeerRow, PeerTableProps } from "@/islands/PeerTable.tsx";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";

/** The rows and interfaces of the live peers table, in the island's compact form. */
export function peerRows(
  peers: PeerWithTelemetry[],
): Pick<PeerTableProps, "rows" | "ifaces"> {
  const ifaces: [string, string][] = [];
  const index = new Map<string, number>();
  const rows = new Array<PeerRow>(peers.length);
  for (let i = 0; i < peers.length; i++) {
    const p = peers[i];
    let k = index.get(p.interface_id);
    if (k === undefined) {
      index.set(p.interface_id, k = ifaces.length);
      ifaces.push([p.interface_id, p.interface_name]);
    }
    const row: PeerRow = { id: p.id, name: p.name, iface: k, address: p.address, status: p.status };
    const t = p.telemetry;
    if (t) {
      if (t.latest_handshake) row.hs = t.latest_handshake;
      row.rx = t.rx_bytes;
      row.tx = t.tx_bytes;
    }
    const l = p.limits;
    if (l) row.lim = [l.used_bytes, l.quota_bytes, l.days_left];
    rows[i] = row;
  }
  return { rows, ifaces };
}
