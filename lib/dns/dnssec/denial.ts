/**
 * Authenticated denial for online signing: the NSEC records a negative or
 * wildcard answer needs, as RFC 4470 "white lies" (minimally covering NSEC
 * records). Instead of the zone's real chain, whose neighbours let anyone
 * list every name (zone walking), a name that does not exist is covered by an
 * NSEC made for it, from a name just before it (nsec.ts, predecessor) to a
 * name just after it (successor), signed on demand. An NSEC at a name that
 * exists has its real types and, as next name, the name just after it.
 *
 * Each epsilon name is checked against the real chain (nsec_chain.ts): when
 * an owner of the zone lies closer to the query name than the epsilon name
 * (only possible with unusual bytes, e.g. labels ending in \000), that owner
 * takes its place, with its real types. So no NSEC here ever covers a name
 * that exists, and every NSEC at a real name lists that name's real types.
 *
 * Which function for which answer (RFC 4035 §3.1.3):
 * - NXDOMAIN: nxdomainProof (the name, and the wildcard at the closest encloser).
 * - NODATA at a name, an empty non-terminal, the apex, a cut (DS query), or an
 *   insecure delegation (referral without DS): nodataProof. The NSEC it returns
 *   for an existing name is also the answer to a query of type NSEC there.
 * - An answer expanded from a wildcard: wildcardAnswerProof.
 * - NODATA from a wildcard: wildcardNodataProof.
 * - DNAME: no denial; the DNAME is signed like any RRset, the CNAME synthesized
 *   from it is not signed (RFC 6672 §5.3.1), and the name it leads to gets the
 *   proof its own answer needs.
 */
import { closestEncloser, type ZoneData } from "../zone_index.ts";
import { labelsKey, nameLabels } from "./canonical.ts";
import { afterSubtree, labelsText, predecessor, successor, T_NSEC } from "./nsec.ts";
import {
  chainIndex,
  chainTypes,
  type DenialOptions,
  firstAfter,
  inChain,
  type NsecRRset,
  nsecRRset,
} from "./nsec_chain.ts";
import { T_RRSIG } from "./rrsig.ts";

export type { DenialOptions, NsecRRset } from "./nsec_chain.ts";

const T_DNAME = 39;
const LIE_TYPES = [T_RRSIG, T_NSEC];

/** The next name for an NSEC ending at `labels` (successor or after-subtree), bounded by the chain's next owner after `key`. */
function nextName(
  z: ZoneData,
  key: string,
  epsilon: Uint8Array[] | null,
): string {
  const idx = chainIndex(z);
  const i = firstAfter(idx, key);
  if (epsilon === null) return i < idx.names.length ? idx.names[i] : z.name;
  if (i < idx.names.length && idx.keys[i] < labelsKey(epsilon)) return idx.names[i];
  return labelsText(epsilon);
}

/** The NSEC that covers `name`, a name that does not exist (or an empty non-terminal). */
function cover(z: ZoneData, name: string, opts: DenialOptions, reusable: boolean): NsecRRset {
  const labels = nameLabels(name);
  const apexLength = nameLabels(z.name).length;
  const key = labelsKey(labels);
  const idx = chainIndex(z);
  // The apex sorts first and always exists, so some chain owner precedes `name`.
  const prev = firstAfter(idx, key) - 1;
  const lie = predecessor(labels, apexLength);
  const lieKey = labelsKey(lie);
  // A name that does not exist is covered with its whole subtree: a next name below it (\000.name)
  // would say the name exists as an empty non-terminal, and validators (BIND) then refuse the
  // NXDOMAIN or wildcard proof. An empty non-terminal's cover ends at its first real descendant.
  const exists = z.names.has(name);
  const epsilon = exists ? successor(labels, apexLength) : afterSubtree(labels, apexLength);
  const next = nextName(z, key, epsilon);
  if (idx.keys[prev] >= lieKey) {
    const owner = idx.names[prev];
    return nsecRRset(z, owner, next, chainTypes(z, owner, opts), reusable);
  }
  return nsecRRset(z, labelsText(lie), next, LIE_TYPES.slice(), reusable);
}

/** The NSEC at `name`, an owner of the chain, with its real types. */
function nsecAt(z: ZoneData, name: string, opts: DenialOptions): NsecRRset {
  const labels = nameLabels(name);
  const apexLength = nameLabels(z.name).length;
  // Nothing below a cut or a DNAME belongs to this zone's answers: step over their subtrees.
  const node = z.nodes.get(name)!;
  const skip = z.cuts.has(name) || node.has(T_DNAME);
  const epsilon = skip ? afterSubtree(labels, apexLength) : successor(labels, apexLength);
  const next = nextName(z, labelsKey(labels), epsilon);
  return nsecRRset(z, name, next, chainTypes(z, name, opts), true);
}

/**
 * Two NSECs for one answer, as one when they share an owner: a message may
 * hold only one NSEC per name (RFC 4034 §4), and both say nothing exists from
 * that owner to their next names, so the one reaching further says both.
 */
function onePerOwner(z: ZoneData, a: NsecRRset, b: NsecRRset): NsecRRset[] {
  if (a.owner !== b.owner) return [a, b];
  const reach = (n: NsecRRset) => n.next === z.name ? "\uffff" : labelsKey(nameLabels(n.next));
  return [reach(a) >= reach(b) ? a : b];
}

/** True when the NSEC `n` covers `name` (lies strictly between its owner and next name). */
export function covers(n: NsecRRset, name: string): boolean {
  const key = labelsKey(nameLabels(name));
  const owner = labelsKey(nameLabels(n.owner));
  const next = labelsKey(nameLabels(n.next));
  // The last NSEC of a chain points back at the apex: it covers everything after its owner.
  return owner < key && (key < next || next <= owner);
}

/**
 * NXDOMAIN for `qname` (RFC 4035 §3.1.3.2): an NSEC covering it and one
 * covering the wildcard at its closest encloser, or one that covers both.
 */
export function nxdomainProof(
  z: ZoneData,
  qname: string,
  opts: DenialOptions = {},
): NsecRRset[] {
  const nameCover = cover(z, qname, opts, false);
  const wildcard = `*.${closestEncloser(z, qname)}`;
  if (covers(nameCover, wildcard)) return [nameCover];
  const wildcardCover = cover(z, wildcard, opts, true);
  if (covers(wildcardCover, qname)) return [wildcardCover];
  return onePerOwner(z, nameCover, wildcardCover);
}

/**
 * NODATA at `name` (RFC 4035 §3.1.3.1): the NSEC at the name with its real
 * types — at a delegation that is NS, RRSIG, NSEC (and no DS: the proof of
 * an insecure delegation) — or, for an empty non-terminal, an NSEC covering
 * it whose next name lies below it. Throws RangeError for a name that does
 * not exist or lies below a delegation.
 */
export function nodataProof(z: ZoneData, name: string, opts: DenialOptions = {}): NsecRRset[] {
  if (inChain(z, name)) return [nsecAt(z, name, opts)];
  if (z.names.has(name) && !z.nodes.has(name)) return [cover(z, name, opts, true)];
  throw new RangeError(`Name "${name}" has no data of zone "${z.name}" to deny`);
}

/** An answer expanded from a wildcard (RFC 4035 §3.1.3.3): the NSEC covering the query name. */
export function wildcardAnswerProof(
  z: ZoneData,
  qname: string,
  opts: DenialOptions = {},
): NsecRRset[] {
  return [cover(z, qname, opts, false)];
}

/**
 * NODATA from a wildcard (RFC 4035 §3.1.3.4): the NSEC covering the query
 * name and the wildcard's own NSEC, whose types lack the query type.
 */
export function wildcardNodataProof(
  z: ZoneData,
  qname: string,
  opts: DenialOptions = {},
): NsecRRset[] {
  const wildcard = `*.${closestEncloser(z, qname)}`;
  return onePerOwner(z, cover(z, qname, opts, false), nsecAt(z, wildcard, opts));
}
