/**
 * Stored rows translated into what the host driver applies. Two reads build
 * the desired state of any number of interfaces, so startup, reconcile and
 * bulk apply cost the same whether there are ten peers or ten thousand.
 */
import type { DesiredInterface, DesiredPeer } from "../host/driver.ts";
import type { TunnelRepos } from "./context.ts";
import type { InterfaceRow } from "./interface_repo.ts";
import type { PeerRow } from "./peer_repo.ts";

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
  repos: TunnelRepos,
  ids?: string[],
): { row: InterfaceRow; desired: DesiredInterface }[] {
  const rows = repos.interfaceRepo.allByName().filter((r) => !ids || ids.includes(r.id));
  if (!rows.length) return [];
  const byIface = new Map<string, DesiredPeer[]>(rows.map((r) => [r.id, []]));
  for (const p of repos.peerRepo.enabledForHost()) {
    byIface.get(p.interface_id)?.push(desiredPeer(p));
  }
  return rows.map((row) => ({ row, desired: desiredInterface(row, byIface.get(row.id)!) }));
}
