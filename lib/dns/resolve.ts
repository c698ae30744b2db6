/**
 * Authoritative lookup in one zone (RFC 1034 §4.3.2, RFC 2181, RFC 2308,
 * RFC 4592): exact match, CNAME followed inside the zone, wildcards,
 * NODATA/NXDOMAIN with the SOA, delegations with NS and glue. Pure: zone
 * data in, RRsets out; the responder turns them into bytes.
 */
import { inZone, parentName } from "./names.ts";
import {
  type Node,
  type RRset,
  T_A,
  T_AAAA,
  T_CNAME,
  T_MX,
  T_NS,
  T_SOA,
  T_SRV,
  type ZoneData,
} from "./zone_index.ts";

export const RCODE_NOERROR = 0;
export const RCODE_FORMERR = 1;
export const RCODE_SERVFAIL = 2;
export const RCODE_NXDOMAIN = 3;
export const RCODE_NOTIMP = 4;
export const RCODE_REFUSED = 5;
export const RCODE_NOTAUTH = 9;

const T_DS = 43;
const T_ANY = 255;
/** Longest CNAME chain followed inside a zone. */
const MAX_CHAIN = 8;

export interface RRsetAt {
  /** Owner, lowercase without trailing dot. */
  owner: string;
  set: RRset;
  /** TTL to send when it differs from the set's (negative answers). */
  ttl?: number;
}

export interface Resolution {
  rcode: number;
  aa: boolean;
  answer: RRsetAt[];
  authority: RRsetAt[];
  additional: RRsetAt[];
  /** A referral: the glue in `additional` is needed, not optional (RFC 9471). */
  referral: boolean;
}

/** Resolves lowercase `qname` (inside `z`) for `qtype`. */
export function resolve(z: ZoneData, qname: string, qtype: number): Resolution {
  const res: Resolution = {
    rcode: RCODE_NOERROR,
    aa: true,
    answer: [],
    authority: [],
    additional: [],
    referral: false,
  };
  const seen = new Set<string>();
  let name = qname;
  for (let hop = 0; hop <= MAX_CHAIN; hop++) {
    seen.add(name);
    const cut = findCut(z, name, qtype);
    if (cut) {
      const ns = z.nodes.get(cut)!.get(T_NS)!;
      res.authority.push({ owner: cut, set: ns });
      addGlue(z, ns, res.additional, true);
      // A referral from the start is not authoritative; after a CNAME the
      // answer so far is.
      if (hop === 0) {
        res.aa = false;
        res.referral = true;
      }
      return res;
    }
    let node: Node | undefined = z.nodes.get(name);
    let owner = name;
    if (!node) {
      if (z.names.has(name)) return negative(z, res, RCODE_NOERROR); // empty non-terminal
      const wild = wildcardFor(z, name);
      if (!wild) return negative(z, res, RCODE_NXDOMAIN);
      node = wild;
      owner = name; // RFC 4592 §3.3.1: the synthesized owner is the query name
    }
    if (qtype === T_ANY) {
      // RFC 8482 §4.2: one RRset answers ANY (NSD gives the first it holds).
      const first = node.values().next().value!;
      res.answer.push({ owner, set: first });
      return positive(z, res, false);
    }
    const set = node.get(qtype);
    if (set) {
      res.answer.push({ owner, set });
      return positive(z, res);
    }
    const cname = node.get(T_CNAME);
    if (!cname) return negative(z, res, RCODE_NOERROR);
    res.answer.push({ owner, set: cname });
    const target = cname.targets[0]!;
    // Outside the zone, or a loop: the resolver continues from here; RFC 1034
    // §6.2.7 shows such an answer without the zone's NS.
    if (!inZone(target, z.name) || seen.has(target)) return res;
    name = target;
  }
  return res;
}

/** The topmost delegation point at or above `name` (a DS query at the cut itself stays in the parent). */
function findCut(z: ZoneData, name: string, qtype: number): string | undefined {
  if (z.cuts.size === 0) return undefined;
  let found: string | undefined;
  for (let n = name; n.length > z.name.length; n = parentName(n)) {
    if (z.cuts.has(n) && !(n === name && qtype === T_DS)) found = n;
  }
  return found;
}

/** The wildcard node that covers `name` (RFC 4592 §4.3), if any. */
function wildcardFor(z: ZoneData, name: string): Node | undefined {
  let ce = parentName(name);
  while (!z.names.has(ce)) ce = parentName(ce);
  return z.nodes.get(`*.${ce}`);
}

function negative(z: ZoneData, res: Resolution, rcode: number): Resolution {
  res.rcode = rcode;
  const soa = z.nodes.get(z.name)!.get(T_SOA)!;
  // RFC 2308 §5: the negative TTL is the lesser of the SOA's TTL and its minimum.
  res.authority.push({ owner: z.name, set: soa, ttl: Math.min(soa.ttl, z.minimum) });
  return res;
}

/**
 * Completes a positive answer the way NSD and BIND do by default: the zone's
 * NS in the authority section (unless the answer is that RRset), and A/AAAA
 * of in-zone targets of NS, MX and SRV in the additional section (RFC 1035
 * §3.3, RFC 2782).
 */
function positive(z: ZoneData, res: Resolution, withNs = true): Resolution {
  const apexNs = z.nodes.get(z.name)!.get(T_NS)!;
  if (withNs && !res.answer.some((a) => a.set === apexNs)) {
    res.authority.push({ owner: z.name, set: apexNs });
  }
  for (const a of [...res.answer, ...res.authority]) {
    const t = a.set.type;
    if (t === T_NS || t === T_MX || t === T_SRV) addGlue(z, a.set, res.additional, false);
  }
  // What the answer already holds is not repeated.
  res.additional = res.additional.filter((x) => !res.answer.some((a) => a.set === x.set));
  return res;
}

function addGlue(z: ZoneData, set: RRset, out: RRsetAt[], belowCut: boolean): void {
  for (const target of set.targets) {
    if (!target || !inZone(target, z.name)) continue;
    // Outside a referral, data below a cut is not ours to give.
    if (!belowCut && findCut(z, target, T_A)) continue;
    const node = z.nodes.get(target);
    if (!node) continue;
    for (const type of [T_A, T_AAAA]) {
      const s = node.get(type);
      if (s && !out.some((o) => o.owner === target && o.set === s)) {
        out.push({ owner: target, set: s });
      }
    }
  }
}
