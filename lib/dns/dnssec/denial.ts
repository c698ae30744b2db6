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
/** Above every canonical key: where the chain's last NSEC, pointing back at the apex, reaches. */
const WRAP = "\uffff";

/** An NSEC made for an answer, with its owner's and next name's canonical keys. */
interface Made {
  nsec: NsecRRset;
  from: string;
  to: string;
}

/** A name as the denial code compares it. */
interface Point {
  labels: Uint8Array[];
  key: string;
  /** The name exists in the zone (an empty non-terminal, when it needs a cover). */
  exists: boolean;
}

function point(z: ZoneData, name: string): Point {
  const labels = nameLabels(name);
  return { labels, key: labelsKey(labels), exists: z.names.has(name) };
}

/**
 * The next name after `key` (the name or, for `epsilon` made by afterSubtree,
 * its subtree): `epsilon`, unless an owner of the chain comes first.
 */
function nextName(
  z: ZoneData,
  key: string,
  epsilon: Uint8Array[] | null,
): { text: string; key: string; labels?: Uint8Array[] } {
  const idx = chainIndex(z);
  const i = firstAfter(idx, key);
  const owner = i < idx.names.length ? { text: idx.names[i], key: idx.keys[i] } : undefined;
  if (epsilon === null) return owner ?? { text: z.name, key: WRAP };
  const epsilonKey = labelsKey(epsilon);
  if (owner && owner.key < epsilonKey) return owner;
  return { text: labelsText(epsilon), key: epsilonKey, labels: epsilon };
}

/** The NSEC that covers `name`, a name that does not exist (or an empty non-terminal). */
function cover(z: ZoneData, name: Point, opts: DenialOptions, reusable: boolean): Made {
  const apexLength = nameLabels(z.name).length;
  const idx = chainIndex(z);
  // The apex sorts first and always exists, so some chain owner precedes `name`.
  const prev = firstAfter(idx, name.key) - 1;
  const lie = predecessor(name.labels, apexLength);
  const lieKey = labelsKey(lie);
  // A name that does not exist is covered with its whole subtree: a next name below it (\000.name)
  // would say the name exists as an empty non-terminal, and validators (BIND) then refuse the
  // NXDOMAIN or wildcard proof. An empty non-terminal's cover ends at its first real descendant.
  const epsilon = name.exists
    ? successor(name.labels, apexLength)
    : afterSubtree(name.labels, apexLength);
  const next = nextName(z, name.key, epsilon);
  const make = (owner: string, types: number[]) =>
    nsecRRset(z, owner, next.text, types, reusable, next.labels);
  if (idx.keys[prev] >= lieKey) {
    const owner = idx.names[prev];
    return { nsec: make(owner, chainTypes(z, owner, opts)), from: idx.keys[prev], to: next.key };
  }
  return { nsec: make(labelsText(lie), LIE_TYPES.slice()), from: lieKey, to: next.key };
}

/** The NSEC at `name`, an owner of the chain, with its real types. */
function nsecAt(z: ZoneData, name: string, opts: DenialOptions): Made {
  const { labels, key } = point(z, name);
  const apexLength = nameLabels(z.name).length;
  // Nothing below a cut or a DNAME belongs to this zone's answers: step over their subtrees.
  const skip = z.cuts.has(name) || z.nodes.get(name)!.has(T_DNAME);
  const epsilon = skip ? afterSubtree(labels, apexLength) : successor(labels, apexLength);
  const next = nextName(z, key, epsilon);
  const nsec = nsecRRset(z, name, next.text, chainTypes(z, name, opts), true, next.labels);
  return { nsec, from: key, to: next.key };
}

/** True when `m` covers the name of `key`: strictly between its owner and its next name. */
function covers(m: Made, key: string): boolean {
  return m.from < key && key < m.to;
}

/**
 * Two NSECs for one answer, as one when they share an owner: a message may
 * hold only one NSEC per name (RFC 4034 §4), and both say nothing exists from
 * that owner to their next names, so the one reaching further says both.
 */
function onePerOwner(a: Made, b: Made): NsecRRset[] {
  if (a.from !== b.from) return [a.nsec, b.nsec];
  return [a.to >= b.to ? a.nsec : b.nsec];
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
  const name = point(z, qname);
  const wildcard = point(z, `*.${closestEncloser(z, qname)}`);
  const nameCover = cover(z, name, opts, false);
  if (covers(nameCover, wildcard.key)) return [nameCover.nsec];
  const wildcardCover = cover(z, wildcard, opts, true);
  if (covers(wildcardCover, name.key)) return [wildcardCover.nsec];
  return onePerOwner(nameCover, wildcardCover);
}

/**
 * NODATA at `name` (RFC 4035 §3.1.3.1): the NSEC at the name with its real
 * types — at a delegation that is NS, RRSIG, NSEC (and no DS: the proof of
 * an insecure delegation) — or, for an empty non-terminal, an NSEC covering
 * it whose next name lies below it. Throws RangeError for a name that does
 * not exist or lies below a delegation.
 */
export function nodataProof(z: ZoneData, name: string, opts: DenialOptions = {}): NsecRRset[] {
  if (inChain(z, name)) return [nsecAt(z, name, opts).nsec];
  if (z.names.has(name) && !z.nodes.has(name)) return [cover(z, point(z, name), opts, true).nsec];
  throw new RangeError(`Name "${name}" has no data of zone "${z.name}" to deny`);
}

/** An answer expanded from a wildcard (RFC 4035 §3.1.3.3): the NSEC covering the query name. */
export function wildcardAnswerProof(
  z: ZoneData,
  qname: string,
  opts: DenialOptions = {},
): NsecRRset[] {
  return [cover(z, point(z, qname), opts, false).nsec];
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
  return onePerOwner(cover(z, point(z, qname), opts, false), nsecAt(z, wildcard, opts));
}
