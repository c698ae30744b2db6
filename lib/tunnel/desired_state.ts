/**
 * Stored rows translated into what the host driver applies. Two reads build
 * the desired state of any number of interfaces, so startup, reconcile and
 * bulk apply cost the same whether there are ten peers or ten thousand.
 */
import type { DesiredInterface, DesiredPeer } from "../host/driver.ts";
import type { TunnelRepos } from "./context.ts";
import type { InterfaceRow } from "./interface_repo.ts";
import type { PeerRow } from "./peer_repo.ts";
import { splitList } from "./upstream_parse.ts";

/**
 * The server-side view of one enabled peer: it may use its tunnel address,
 * and the destinations of the routes whose gateway it is (`routed`). A peer
 * with an endpoint is the provider of an upstream interface (docs/tunnels.md,
 * "Upstream import"): the server dials it, sends it its stored AllowedIPs
 * (e.g. 0.0.0.0/0) and keeps the provider's keepalive.
 */
export function desiredPeer(
  p:
    & Pick<PeerRow, "public_key" | "preshared_key" | "address">
    & Partial<Pick<PeerRow, "allowed_ips" | "keepalive" | "endpoint">>,
  routed: string[] = [],
): DesiredPeer {
  if (p.endpoint) {
    const own = splitList(p.allowed_ips ?? "");
    return {
      publicKey: p.public_key,
      presharedKey: p.preshared_key,
      allowedIps: [...own, ...routed.filter((r) => !own.includes(r))],
      keepalive: p.keepalive || null,
      endpoint: p.endpoint,
    };
  }
  return {
    publicKey: p.public_key,
    presharedKey: p.preshared_key,
    allowedIps: [`${p.address}/32`, ...routed],
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
export async function desiredState(
  repos: TunnelRepos,
  ids?: string[],
): Promise<{ row: InterfaceRow; desired: DesiredInterface }[]> {
  const rows = (await repos.interfaceRepo.allByName()).filter((r) => !ids || ids.includes(r.id));
  if (!rows.length) return [];
  const byIface = new Map<string, DesiredPeer[]>(rows.map((r) => [r.id, []]));
  const routed = await routedPrefixes(repos);
  for (const p of await repos.peerRepo.enabledForHost()) {
    byIface.get(p.interface_id)?.push(desiredPeer(p, routed.get(peerKey(p)) ?? []));
  }
  return rows.map((row) => ({ row, desired: desiredInterface(row, byIface.get(row.id)!) }));
}

/** The key of `routedPrefixes`: a peer's interface and tunnel address. */
export const peerKey = (p: { interface_id: string; address: string }) =>
  `${p.interface_id}|${p.address}`;

/**
 * The route destinations each gateway carries, by `peerKey`. WireGuard sends
 * a packet to the one peer whose AllowedIPs hold its destination, so a route
 * through a peer only carries traffic when that peer's AllowedIPs have the
 * destination. A destination routed through two peers of one interface
 * (other metrics) goes to the route with the lowest metric: AllowedIPs
 * cannot hold one block twice.
 */
export async function routedPrefixes(
  repos: Pick<TunnelRepos, "routeRepo">,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const taken = new Set<string>();
  const routes = (await repos.routeRepo.all()).sort((a, b) => a.metric - b.metric);
  for (const r of routes) {
    const claim = `${r.interface_id}|${r.destination}`;
    if (taken.has(claim)) continue;
    taken.add(claim);
    const key = peerKey({ interface_id: r.interface_id, address: r.gateway });
    out.set(key, [...(out.get(key) ?? []), r.destination].sort());
  }
  return out;
}
