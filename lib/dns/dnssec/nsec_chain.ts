/**
 * The zone's real NSEC chain (RFC 4034 §4, RFC 4035 §2.3): every owner with
 * authoritative data or a delegation, in canonical order. Answers never
 * show it (denial.ts serves white lies); it serves two purposes: a full
 * transfer carries it (a secondary serving the zone needs a chain that covers
 * every name), and the white lies are checked against it so that none ever
 * covers a name that exists.
 *
 * Left out: names below a delegation (glue, occluded data) and empty
 * non-terminals, which own no NSEC (RFC 4035 §2.3). At a cut the bitmap is
 * NS, DS when present, RRSIG and NSEC: the parent is authoritative for those
 * only. Elsewhere: the name's types plus RRSIG and NSEC, and at the apex the
 * key types the signer publishes (DNSKEY by default).
 */
import { findCut, type RRset, T_NS, T_SOA, type ZoneData } from "../zone_index.ts";
import { canonicalKey } from "./canonical.ts";
import { nsecRdata, T_NSEC } from "./nsec.ts";
import { T_RRSIG } from "./rrsig.ts";
import type { RRsetToSign } from "./types.ts";

const T_DS = 43;
export const T_DNSKEY = 48;

export interface DenialOptions {
  /** Types served at the apex beside the zone's data (the keys): DNSKEY unless told otherwise. */
  apexTypes?: readonly number[];
}

/** An NSEC RRset to serve and sign, with what it says in readable form. */
export interface NsecRRset extends RRsetToSign {
  next: string;
  types: number[];
  /**
   * False for a white lie made for one query name: worth signing without
   * caching (ZoneSigner.sign's `cache: false`), since another name needs another.
   */
  reusable: boolean;
}

/** The chain's owners in canonical order, and their keys (canonicalKey) for binary search. */
export interface ChainIndex {
  names: string[];
  keys: string[];
}

const indexes = new WeakMap<ZoneData, ChainIndex>();

/** True when `owner` lies below a delegation of `z` (occluded: glue, or data the cut hides). */
function occluded(z: ZoneData, owner: string): boolean {
  const cut = findCut(z, owner, 0);
  return cut !== undefined && cut !== owner;
}

/**
 * The chain index of `z`, built on first use and kept as long as `z` lives
 * (the answer index replaces a zone's data on every change, so it never goes stale).
 */
export function chainIndex(z: ZoneData): ChainIndex {
  let idx = indexes.get(z);
  if (idx) return idx;
  const pairs: [string, string][] = [];
  for (const owner of z.nodes.keys()) {
    if (!occluded(z, owner)) pairs.push([canonicalKey(owner), owner]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  idx = { keys: pairs.map((p) => p[0]), names: pairs.map((p) => p[1]) };
  indexes.set(z, idx);
  return idx;
}

/** Index of the first key greater than `key` (keys.length when none). */
export function firstAfter(idx: ChainIndex, key: string): number {
  let lo = 0;
  let hi = idx.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (idx.keys[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when `name` owns an NSEC of the chain: authoritative data or a delegation. */
export function inChain(z: ZoneData, name: string): boolean {
  return z.nodes.has(name) && !occluded(z, name);
}

/** The types an NSEC at chain owner `name` lists (see the module comment). */
export function chainTypes(z: ZoneData, name: string, opts: DenialOptions = {}): number[] {
  const node = z.nodes.get(name)!;
  const types: number[] = [];
  if (z.cuts.has(name)) {
    types.push(T_NS);
    if (node.has(T_DS)) types.push(T_DS);
  } else {
    types.push(...node.keys());
    if (name === z.name) types.push(...(opts.apexTypes ?? [T_DNSKEY]));
  }
  types.push(T_RRSIG, T_NSEC);
  return [...new Set(types)].sort((a, b) => a - b);
}

/** RFC 9077: an NSEC's TTL is the lesser of the SOA's TTL and its minimum field. */
export function nsecTtl(z: ZoneData): number {
  const soa = z.nodes.get(z.name)?.get(T_SOA);
  return Math.min(z.minimum, soa?.ttl ?? z.minimum);
}

/** An NSEC RRset from its parts; `nextLabels`, when known, spare parsing `next`. */
export function nsecRRset(
  z: ZoneData,
  owner: string,
  next: string,
  types: number[],
  reusable: boolean,
  nextLabels?: Uint8Array[],
): NsecRRset {
  return {
    owner,
    type: T_NSEC,
    ttl: nsecTtl(z),
    rdatas: [nsecRdata(nextLabels ?? next, types)],
    next,
    types,
    reusable,
  };
}

/** The zone's whole NSEC chain, for a full transfer: each owner's next is the following one, the last's the apex. */
export function nsecChain(z: ZoneData, opts: DenialOptions = {}): NsecRRset[] {
  const { names } = chainIndex(z);
  return names.map((owner, i) =>
    nsecRRset(z, owner, names[(i + 1) % names.length], chainTypes(z, owner, opts), true)
  );
}

/**
 * The RRsets of `z` that carry signatures, in canonical order of their owners:
 * all data at chain owners, except at a cut, where only DS is the parent's
 * (its NS and any glue are not signed, RFC 4035 §2.2).
 */
export function signedRRsets(z: ZoneData): { owner: string; set: RRset }[] {
  const out: { owner: string; set: RRset }[] = [];
  for (const owner of chainIndex(z).names) {
    const node = z.nodes.get(owner)!;
    const cut = z.cuts.has(owner);
    for (const set of node.values()) {
      if (!cut || set.type === T_DS) out.push({ owner, set });
    }
  }
  return out;
}
