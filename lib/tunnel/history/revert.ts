/**
 * What reverting one change does, per kind (docs/tunnels.md, "History and
 * revert"): the object's `before` state is put back through its own service,
 * so values are checked again, the host is changed, events go out and the
 * change is audited and kept in history like any other.
 *
 * Secrets are never in history, so a revert never sets a key. A peer's
 * deletion and its revoke are therefore refused (its keys went with it; the
 * client's configuration cannot be restored), as is putting back a preshared
 * key a change removed. Everything else of a peer is put back, including
 * fields added to the peer later: each changed field goes to `update()`.
 */
import { ConflictError } from "../../errors.ts";
import type { FirewallService } from "../firewall/firewall_service.ts";
import type { PeerService } from "../peer_service.ts";
import type { RouteService } from "../routes/route_service.ts";
import type { Snapshot, TunnelChange } from "./history_repo.ts";
import { KIND_NOUN, labelOf } from "./history_write.ts";

export interface RevertTargets {
  peers: PeerService;
  firewall: FirewallService;
  routes: RouteService;
}

/** Fields a peer update cannot set: identity, state, and the secret flags. */
const PEER_FIXED = new Set([
  "id",
  "interface_id",
  "public_key",
  "status",
  "has_private_key",
  "has_preshared_key",
  "endpoint",
]);

/** The fields whose value differs between two snapshots, sorted. */
export function changedFields(before: Snapshot | null, after: Snapshot | null): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((k) => JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k]))
    .sort();
}

function irreversible(c: TunnelChange, why: string): ConflictError {
  return new ConflictError(
    `Cannot revert change ${c.id} of ${KIND_NOUN[c.kind]} "${labelOf(c.before, c.after)}": ${why}`,
    { field: "entry", code: "history_irreversible" },
  );
}

/** Puts the object of change `c` back as it was before `c`. */
export async function applyBefore(t: RevertTargets, c: TunnelChange, actor: string): Promise<void> {
  if (c.kind === "peer") return await revertPeer(t.peers, c, actor);
  if (c.kind === "firewall_rule") return await revertRule(t.firewall, c, actor);
  return await revertRoute(t.routes, c, actor);
}

async function revertPeer(peers: PeerService, c: TunnelChange, actor: string): Promise<void> {
  const { before, after } = c;
  if (before === null) return await peers.delete(c.objectId, actor);
  if (after === null) {
    throw irreversible(c, "a deleted peer cannot be restored, its keys were erased with it");
  }
  if (after.status === "revoked") {
    throw irreversible(c, "revoking is final, the peer's keys were erased");
  }
  if (before.has_preshared_key === true && after.has_preshared_key === false) {
    throw irreversible(c, "the preshared key it removed is not kept");
  }
  const input: Record<string, unknown> = {};
  for (const f of changedFields(before, after)) {
    if (!PEER_FIXED.has(f)) input[f] = before[f];
  }
  if (before.has_preshared_key !== after.has_preshared_key) input.preshared_key = false;
  if (Object.keys(input).length) await peers.update(c.objectId, input, actor);
  if (before.status !== after.status) {
    if (before.status === "enabled") await peers.enable(c.objectId, actor);
    else await peers.disable(c.objectId, actor);
  }
}

async function revertRule(fw: FirewallService, c: TunnelChange, actor: string): Promise<void> {
  const { before, after } = c;
  if (before === null) return await fw.delete(c.objectId, actor);
  if (after === null) {
    const input = {
      name: before.name,
      protocol: before.protocol,
      port: before.port,
      action: before.action,
      direction: before.direction,
      interface_id: before.interface_id,
      source: before.source,
      enabled: before.enabled === 1 || before.enabled === true,
    } as Parameters<FirewallService["create"]>[0];
    await fw.create(input, actor, { id: c.objectId, position: Number(before.position) });
    return;
  }
  if (before.enabled === 1 || before.enabled === true) await fw.enable(c.objectId, actor);
  else await fw.disable(c.objectId, actor);
}

async function revertRoute(routes: RouteService, c: TunnelChange, actor: string): Promise<void> {
  const { before } = c;
  if (before === null) return await routes.delete(c.objectId, actor);
  const input = {
    destination: before.destination,
    gateway: before.gateway,
    metric: before.metric,
    interface_id: before.interface_id,
  } as Parameters<RouteService["create"]>[0];
  await routes.create(input, actor, { id: c.objectId });
}
