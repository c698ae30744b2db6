/**
 * What completes an answer, as NSD 4 gives it by default: the zone's NS
 * beside a positive answer, the SOA of a negative one, and the addresses of
 * the names that NS, MX and SRV records point at (RFC 1035 §3.3, RFC 2782) in
 * the additional section, in NSD's order: every A RRset first, then every
 * AAAA, each list following the records' order.
 */
import { inZone } from "./names.ts";
import type { Resolution, RRsetAt } from "./resolve.ts";
import {
  closestEncloser,
  findCut,
  type Node,
  type RRset,
  T_A,
  T_AAAA,
  T_MX,
  T_NS,
  T_SOA,
  T_SRV,
  type ZoneData,
} from "./zone_index.ts";

const ADDRESS_TYPES = [T_A, T_AAAA];

/**
 * The zone's NS in the authority section (when `withNs`, unless the answer is
 * that RRset) and the addresses of the targets. All of it is optional: a
 * message too small drops it before anything else, without TC.
 */
export function positive(zone: ZoneData, res: Resolution, withNs: boolean): Resolution {
  const apexNs = zone.nodes.get(zone.name)!.get(T_NS)!;
  if (withNs && !res.answer.some((a) => a.set === apexNs)) {
    res.authority.push({ owner: zone.name, set: apexNs, optional: true });
  }
  const pointing = [...res.answer, ...res.authority].filter((a) =>
    a.set.type === T_NS || a.set.type === T_MX || a.set.type === T_SRV
  );
  addAddresses(zone, pointing.map((a) => a.set), res, () => true);
  return res;
}

/** NODATA or NXDOMAIN with the SOA (RFC 2308 §5: its TTL the lesser of its own and the minimum). */
export function negative(
  zone: ZoneData,
  res: Resolution,
  rcode: number,
  classAny: boolean,
): Resolution {
  res.rcode = rcode;
  // NSD sends no SOA to a QCLASS ANY query: such an answer is not authoritative.
  if (classAny) return res;
  const soa = zone.nodes.get(zone.name)!.get(T_SOA)!;
  res.authority.push({ owner: zone.name, set: soa, ttl: Math.min(soa.ttl, zone.minimum) });
  return res;
}

/**
 * A and AAAA RRsets of the in-zone names `sets` point at, appended to the
 * additional section unless the answer or the section already holds them;
 * `optional(target)` says whether one may be left out. NS targets below a
 * cut are glue and given; other records' targets there are not ours to give.
 */
export function addAddresses(
  zone: ZoneData,
  sets: { type: number; targets: (string | undefined)[] }[],
  res: Resolution,
  optional: (target: string) => boolean,
): void {
  // Sets, not scans: an MX or NS RRset may hold thousands of targets.
  const targets = new Set<string>();
  for (const set of sets) {
    for (const target of set.targets) {
      if (!target || targets.has(target) || !inZone(target, zone.name)) continue;
      if (set.type !== T_NS && findCut(zone, target, T_A)) continue;
      targets.add(target);
    }
  }
  const given = new Set<RRset>();
  for (const a of [...res.answer, ...res.additional]) given.add(a.set);
  for (const type of ADDRESS_TYPES) {
    for (const target of targets) {
      const found = addressNode(zone, target);
      const s = found?.node.get(type);
      // An RRset is one owner's, but a wildcard's stands in for many names: compare the owner too.
      if (!s || (given.has(s) && held(res, s, target))) continue;
      const at: RRsetAt = { owner: target, set: s, optional: optional(target) };
      if (found!.wildcard) at.wildcard = found!.wildcard;
      res.additional.push(at);
      given.add(s);
    }
  }
}

function held(res: Resolution, s: RRset, owner: string): boolean {
  const same = (a: RRsetAt) => a.set === s && a.owner === owner;
  return res.answer.some(same) || res.additional.some(same);
}

/** The node of `target`, or the wildcard that stands in for it, as NSD looks additional data up. */
function addressNode(
  zone: ZoneData,
  target: string,
): { node: Node; wildcard?: string } | undefined {
  const node = zone.nodes.get(target);
  if (node) return { node };
  if (zone.names.has(target)) return undefined;
  const wildcard = `*.${closestEncloser(zone, target)}`;
  const wild = zone.nodes.get(wildcard);
  return wild ? { node: wild, wildcard } : undefined;
}
