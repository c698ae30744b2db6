/** An interface's stored configuration merged with one live read: link, counters, peer metrics. */
import { isoTime } from "../clock.ts";
import { CONNECTED_WINDOW_SECONDS, type LiveInterface } from "../host/driver.ts";
import type { TunnelContext } from "./context.ts";
import type { InterfaceRow } from "./interface_repo.ts";

export interface PeerMetric {
  id: string | null;
  name: string | null;
  public_key: string;
  endpoint: string | null;
  latest_handshake: string | null;
  rx_bytes: number;
  tx_bytes: number;
  connected: boolean;
}

export interface InterfaceStatus {
  id: string;
  name: string;
  driver: "linux" | "none";
  /** False when the host layer is off: live fields are then null. */
  host_active: boolean;
  /** "up", "down", "missing" (device absent) or "unknown" (host layer off). */
  link: "up" | "down" | "missing" | "unknown";
  enabled: boolean;
  listen_port: number | null;
  mtu: number | null;
  addresses_v4: string[];
  rx_bytes: number | null;
  tx_bytes: number | null;
  peers: { stored: number; enabled: number; on_host: number; connected: number };
  peer_metrics: PeerMetric[];
  read_at: string | null;
}

/** The status of `row` from its stored peers and the shared host read. */
export async function interfaceStatus(
  ctx: Pick<TunnelContext, "peerRepo" | "host" | "telemetry">,
  row: InterfaceRow,
): Promise<InterfaceStatus> {
  const peers = await ctx.peerRepo.summariesOf(row.id);
  const driver = ctx.host.driver;
  const state = await ctx.telemetry.state();
  const live: LiveInterface | null = state?.interfaces.get(row.name) ?? null;
  const nowS = Date.now() / 1000;
  const byKey = new Map(peers.map((p) => [p.public_key, p]));
  const metrics: PeerMetric[] = [];
  for (const lp of live?.peers.values() ?? []) {
    const p = byKey.get(lp.publicKey);
    metrics.push({
      id: p?.id ?? null,
      name: p?.name ?? null,
      public_key: lp.publicKey,
      endpoint: lp.endpoint,
      latest_handshake: lp.latestHandshake ? isoTime(lp.latestHandshake * 1000) : null,
      rx_bytes: lp.rxBytes,
      tx_bytes: lp.txBytes,
      connected: lp.latestHandshake > 0 && nowS - lp.latestHandshake < CONNECTED_WINDOW_SECONDS,
    });
  }
  return {
    id: row.id,
    name: row.name,
    driver: driver.name,
    host_active: driver.active,
    link: !driver.active ? "unknown" : !live ? "missing" : live.up ? "up" : "down",
    enabled: row.enabled === 1,
    listen_port: live?.listenPort ?? null,
    mtu: live?.mtu ?? null,
    addresses_v4: live?.addressesV4 ?? [],
    rx_bytes: live ? live.rxBytes : null,
    tx_bytes: live ? live.txBytes : null,
    peers: {
      stored: peers.length,
      enabled: peers.filter((p) => p.status === "enabled").length,
      on_host: live?.peers.size ?? 0,
      connected: metrics.filter((m) => m.connected).length,
    },
    peer_metrics: metrics,
    read_at: state ? isoTime(state.readAt) : null,
  };
}
