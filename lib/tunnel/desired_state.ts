/**
 * Stored rows and their translation into what the host driver applies. Two
 * queries build the desired state of any number of interfaces, so startup,
 * reconcile and bulk apply cost the same whether there are ten peers or ten
 * thousand.
 */
import type { DesiredInterface, DesiredPeer } from "../host/driver.ts";
import type { Store } from "../store/store.ts";

export interface InterfaceRow {
  id: string;
  name: string;
  address_v4: string;
  listen_port: number | null;
  mtu: number;
  role: "overlay" | "upstream";
  enabled: number;
  private_key: string;
  public_key: string;
  created_at: number;
  updated_at: number;
}

export type PeerStatus = "enabled" | "disabled" | "revoked";

export interface PeerRow {
  id: string;
  interface_id: string;
  name: string;
  public_key: string;
  private_key: string | null;
  preshared_key: string | null;
  address: string;
  allowed_ips: string | null;
  dns: string;
  keepalive: number | null;
  mtu: number | null;
  profile: string;
  status: PeerStatus;
  created_at: number;
  updated_at: number;
}

/** The server-side view of one enabled peer: it may use exactly its tunnel address. */
export function desiredPeer(
  p: Pick<PeerRow, "public_key" | "preshared_key" | "address">,
): DesiredPeer {
  return {
    publicKey: p.public_key,
    presharedKey: p.preshared_key,
    allowedIps: [`${p.address}/32`],
    // Server-side keepalive stays off: roaming clients keep the path open.
    keepalive: null,
  };
}

/** Desired state of one stored interface, given its enabled peers. */
export function desiredInterface(row: InterfaceRow, peers: DesiredPeer[]): DesiredInterface {
  return {
    name: row.name,
    privateKey: row.private_key,
    publicKey: row.public_key,
    listenPort: row.listen_port,
    addressV4: row.address_v4,
    mtu: row.mtu,
    up: row.enabled === 1,
    peers,
  };
}

/** Desired state of the given interfaces (all when `ids` is absent), with their rows. */
export function desiredState(
  store: Store,
  ids?: string[],
): { row: InterfaceRow; desired: DesiredInterface }[] {
  const rows = store.all<InterfaceRow>("SELECT * FROM interfaces ORDER BY name")
    .filter((r) => !ids || ids.includes(r.id));
  if (!rows.length) return [];
  const byIface = new Map<string, DesiredPeer[]>(rows.map((r) => [r.id, []]));
  const peers = store.all<
    Pick<PeerRow, "interface_id" | "public_key" | "preshared_key" | "address">
  >(
    "SELECT interface_id, public_key, preshared_key, address FROM peers WHERE status = 'enabled'",
  );
  for (const p of peers) byIface.get(p.interface_id)?.push(desiredPeer(p));
  return rows.map((row) => ({ row, desired: desiredInterface(row, byIface.get(row.id)!) }));
}
