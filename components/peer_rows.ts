import type { PeerRow } from "@/islands/PeerTable.tsx";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";

/** The fields of a peer the live table shows: the island's props stay small with 1,000 rows. */
export function peerRows(peers: PeerWithTelemetry[]): PeerRow[] {
  const out = new Array<PeerRow>(peers.length);
  for (let i = 0; i < peers.length; i++) {
    const p = peers[i];
    const t = p.telemetry;
    out[i] = {
      id: p.id,
      name: p.name,
      iface: p.interface_name,
      iface_id: p.interface_id,
      address: p.address,
      status: p.status,
      hs: t?.latest_handshake ?? null,
      rx: t ? t.rx_bytes : null,
      tx: t ? t.tx_bytes : null,
      endpoint: t?.endpoint ?? null,
    };
  }
  return out;
}
