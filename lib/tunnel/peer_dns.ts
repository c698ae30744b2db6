/**
 * Peer names in DNS (docs/tunnels.md): an interface with `dns_zone` set
 * publishes each enabled peer as `<label>.<zone>` A through the DNS domain's
 * own write path (`PeerNamePublisher`, lib/dns/owned_records.ts). Every call
 * runs inside the peer or interface change's transaction, so a refused name
 * leaves no peer change either.
 */
import { ConflictError, NotFoundError, UnprocessableError } from "../errors.ts";
import type { TunnelContext } from "./context.ts";

/** What the tunnel domain needs of DNS; built over `OwnedRecords` in the composition root. */
export interface PeerNamePublisher {
  /** The stored name of zone `name`, or undefined when no such zone exists. */
  zoneName(name: string): Promise<string | undefined>;
  /** Makes the owner's records exactly `wanted` in `zone` (none when null); see OwnedRecords. */
  sync(
    actor: string,
    owner: string,
    zone: string | null,
    wanted: { name: string; type: "A" | "AAAA"; value: string }[],
    field: string,
  ): Promise<void>;
}

const MAX_LABEL = 63;

/**
 * A peer name as one DNS label: lower case, runs of anything but a-z, 0-9
 * and hyphen become one hyphen, no hyphen at either end, at most 63
 * characters; empty when nothing is left.
 */
export function dnsLabel(name: string): string {
  const label = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-");
  return label.replace(/^-+/, "").slice(0, MAX_LABEL).replace(/-+$/, "");
}

const ownerOf = (peerId: string) => `peer:${peerId}`;

/** The checked zone name of an interface's `dns_zone` input; null turns publishing off. */
export async function checkDnsZone(
  ctx: TunnelContext,
  input: string | null,
  what: string,
): Promise<string | null> {
  if (input === null) return null;
  if (!ctx.names) {
    throw new UnprocessableError(`${what}: peer names in DNS need the DNS service`, "dns_zone");
  }
  const zone = await ctx.names.zoneName(input);
  if (zone === undefined) {
    // 404 like a scoped key's missing zone: the input is well formed, the zone is absent.
    throw new NotFoundError(`${what}: zone "${input}" does not exist`, {
      field: "dns_zone",
      code: "zone_not_found",
    });
  }
  return zone;
}

/** Brings the names of peer `peerId` in step with its row (inside the caller's transaction). */
export async function publishPeer(
  ctx: TunnelContext,
  peerId: string,
  actor: string,
  field = "name",
): Promise<void> {
  if (!ctx.names) return;
  const peer = await ctx.peerRepo.get(peerId);
  const iface = peer && await ctx.interfaceRepo.get(peer.interface_id);
  const zone = iface?.dns_zone ?? null;
  if (!peer || zone === null || peer.status !== "enabled") {
    return ctx.names.sync(actor, ownerOf(peerId), null, [], field);
  }
  const label = dnsLabel(peer.name) || `peer-${peer.id.slice(0, 8)}`;
  for (const other of await ctx.peerRepo.summariesOf(peer.interface_id)) {
    if (other.id === peer.id || other.status !== "enabled") continue;
    if ((dnsLabel(other.name) || `peer-${other.id.slice(0, 8)}`) === label) {
      throw new ConflictError(
        `Peer "${peer.name}" would be published as "${label}.${zone}", the name of peer "${other.name}"`,
        { field, code: "duplicate_dns_label" },
      );
    }
  }
  await ctx.names.sync(
    actor,
    ownerOf(peerId),
    zone,
    [{ name: `${label}.${zone}`, type: "A", value: peer.address }],
    field,
  );
}

/** Withdraws the names of peer `peerId` (before it is deleted). */
export async function withdrawPeer(ctx: TunnelContext, peerId: string, actor: string) {
  await ctx.names?.sync(actor, ownerOf(peerId), null, [], "name");
}

/** Brings every peer of an interface in step (its `dns_zone` changed, or it goes). */
export async function publishInterface(
  ctx: TunnelContext,
  interfaceId: string,
  actor: string,
  withdraw = false,
): Promise<void> {
  if (!ctx.names) return;
  for (const p of await ctx.peerRepo.summariesOf(interfaceId)) {
    if (withdraw) await withdrawPeer(ctx, p.id, actor);
    else await publishPeer(ctx, p.id, actor, "dns_zone");
  }
}
