/**
 * Authoritative lookup (RFC 1034 §4.3.2, RFC 2181, RFC 2308, RFC 4592, RFC
 * 6672) as NSD answers: exact match, CNAME and DNAME followed through every
 * zone served here, wildcards, NODATA/NXDOMAIN with the SOA, delegations with
 * NS and glue. Pure: zone data in, RRsets out; the responder turns them into
 * bytes. Additional data and the zone's NS beside an answer are in
 * additional.ts.
 */
import { addAddresses, negative, positive } from "./additional.ts";
import { nameWire, nameWireLength } from "./encode.ts";
import { inZone } from "./names.ts";
import {
  closestEncloser,
  findCut,
  type Node,
  type RRset,
  T_CNAME,
  T_DNAME,
  T_NS,
  type ZoneData,
} from "./zone_index.ts";

export const RCODE_NOERROR = 0;
export const RCODE_FORMERR = 1;
export const RCODE_SERVFAIL = 2;
export const RCODE_NXDOMAIN = 3;
export const RCODE_NOTIMP = 4;
export const RCODE_REFUSED = 5;
export const RCODE_YXDOMAIN = 6;
export const RCODE_NOTAUTH = 9;

/** RFC 8914 Extended DNS Error codes we send. */
export const EDE_OTHER = 0;
export const EDE_PROHIBITED = 18;
export const EDE_NOT_AUTHORITATIVE = 20;
export const EDE_NOT_SUPPORTED = 21;

const T_DS = 43;
const T_DNSKEY = 48;
const T_ANY = 255;
/** Queries answered without the zone's NS: ANY (RFC 8482 keeps it small) and, as in NSD, DS and DNSKEY. */
const NO_NS = new Set([T_ANY, T_DS, T_DNSKEY]);
/**
 * Most CNAME and DNAME hops followed. NSD follows a chain until it loops, so
 * the bound only has to be out of reach of any answer that fits a message: a
 * CNAME takes at least 16 bytes, so 4096 of them exceed 65 535.
 */
const MAX_CHAIN = 4096;

export interface RRsetAt {
  /** Owner, lowercase without trailing dot. */
  owner: string;
  set: RRset;
  /** TTL to send when it differs from the set's (negative answers). */
  ttl?: number;
  /** May be left out of a message too small for it without setting TC (RFC 2181 §9). */
  optional?: boolean;
  /** The wildcard owner ("*.example.com") the set was expanded from: DNSSEC signs it as that. */
  wildcard?: string;
  /** Made by the server (the CNAME a DNAME synthesizes, RFC 6672 §3.4): never signed. */
  synthesized?: boolean;
}

/**
 * What a DNSSEC answer must prove besides its signed RRsets (RFC 4035
 * §3.1.3): each negative step, wildcard expansion and insecure referral of the
 * lookup, in the zone it happened in.
 */
export interface Proof {
  kind: "nxdomain" | "nodata" | "wildcard" | "wildcard-nodata" | "referral";
  zone: ZoneData;
  /** The name looked up (for a referral: the cut). */
  name: string;
  /** The wildcard owner used, for the wildcard kinds. */
  wildcard?: string;
}

/** An Extended DNS Error (RFC 8914) for the OPT record. */
export interface Ede {
  code: number;
  text?: string;
}

export interface Resolution {
  rcode: number;
  aa: boolean;
  answer: RRsetAt[];
  authority: RRsetAt[];
  additional: RRsetAt[];
  /** Sent when the query has EDNS. */
  ede?: Ede;
  /** Denial and wildcard proofs a signed answer needs, in lookup order. */
  proofs: Proof[];
}

/** Where a chain leaving one zone continues: the closest enclosing zone served here. */
export interface ZoneFinder {
  findZone(name: string): ZoneData | undefined;
}

/**
 * Resolves lowercase `qname` (inside `z`) for `qtype`. With QCLASS ANY the
 * answer is not authoritative (RFC 1034 §3.7.1) and carries no SOA or NS of
 * the zone, as NSD answers it.
 */
export function resolve(
  zones: ZoneFinder,
  z: ZoneData,
  qname: string,
  qtype: number,
  classAny = false,
): Resolution {
  const res: Resolution = {
    rcode: RCODE_NOERROR,
    aa: !classAny,
    answer: [],
    authority: [],
    additional: [],
    proofs: [],
  };
  const seen = new Set<string>();
  const dnames = new Set<RRset>();
  let zone = z;
  let name = qname;
  for (let hop = 0; hop <= MAX_CHAIN; hop++) {
    seen.add(name);
    const cut = findCut(zone, name, qtype);
    if (cut) {
      res.proofs.push({ kind: "referral", zone, name: cut });
      return referral(zone, res, cut, hop === 0);
    }
    const found = locate(zone, name);
    if (typeof found === "number") {
      res.proofs.push({ kind: found === RCODE_NXDOMAIN ? "nxdomain" : "nodata", zone, name });
      return negative(zone, res, found, classAny);
    }
    let next: string;
    if ("dname" in found) {
      // RFC 6672 §3.2: the DNAME, then a CNAME synthesized from it. NSD stops
      // where it meets the same DNAME again.
      if (dnames.has(found.dname)) return res;
      dnames.add(found.dname);
      res.answer.push({ owner: found.owner, set: found.dname });
      const target = substitute(name, found.owner, found.dname.targets[0]!);
      if (target === undefined) return tooLong(res);
      res.answer.push({
        owner: name,
        set: synthesized(target, found.dname.ttl),
        synthesized: true,
      });
      // The synthesized CNAME answers a CNAME query; NSD adds nothing after it.
      if (qtype === T_CNAME) return res;
      next = target;
    } else {
      const { node, wildcard } = found;
      // RFC 8482 §4.2: one RRset answers ANY (NSD gives the first it holds).
      const set = qtype === T_ANY ? node.values().next().value! : node.get(qtype);
      const cname = set ? undefined : node.get(T_CNAME);
      if (wildcard) {
        const kind = set || cname ? "wildcard" : "wildcard-nodata";
        res.proofs.push({ kind, zone, name, wildcard });
      }
      if (set) {
        res.answer.push({ owner: name, set, wildcard });
        return positive(zone, res, !classAny && !NO_NS.has(qtype));
      }
      if (!cname) {
        if (!wildcard) res.proofs.push({ kind: "nodata", zone, name });
        return negative(zone, res, RCODE_NOERROR, classAny);
      }
      res.answer.push({ owner: name, set: cname, wildcard });
      next = cname.targets[0]!;
    }
    // RFC 1034 §4.3.2 step 3a: the chain goes on in whichever zone served here
    // holds the target. Outside them all, or on a loop, the resolver takes
    // over: RFC 1034 §6.2.7 shows such an answer without authority data.
    const nextZone = seen.has(next) ? undefined : zones.findZone(next);
    if (!nextZone) return res;
    zone = nextZone;
    name = next;
  }
  return res;
}

/** NS of the cut in authority, glue in additional; only a referral from the start is not authoritative. */
function referral(zone: ZoneData, res: Resolution, cut: string, first: boolean): Resolution {
  const ns = zone.nodes.get(cut)!.get(T_NS)!;
  res.authority.push({ owner: cut, set: ns });
  // RFC 9471: glue below the cut must fit (or TC); sibling glue is optional.
  addAddresses(zone, [ns], res, (target) => !inZone(target, cut));
  if (first) res.aa = false;
  return res;
}

type Located = { node: Node; wildcard?: string } | { dname: RRset; owner: string } | number;

/**
 * What answers `name`: its node, a wildcard's (RFC 4592 §3.3.1: answered
 * under the query name), or the DNAME of its closest encloser (RFC 6672 §3.2);
 * otherwise the rcode of the negative answer (an empty non-terminal is NODATA).
 */
function locate(zone: ZoneData, name: string): Located {
  const node = zone.nodes.get(name);
  if (node) return { node };
  if (zone.names.has(name)) return RCODE_NOERROR;
  const ce = closestEncloser(zone, name);
  const dname = zone.nodes.get(ce)?.get(T_DNAME);
  if (dname) return { dname, owner: ce };
  const wildcard = `*.${ce}`;
  const wild = zone.nodes.get(wildcard);
  return wild ? { node: wild, wildcard } : RCODE_NXDOMAIN;
}

/** `name` with its suffix `owner` replaced by `target`; undefined when longer than a name may be. */
function substitute(name: string, owner: string, target: string): string | undefined {
  const prefix = name.slice(0, name.length - owner.length - 1);
  const out = target === "" ? prefix : `${prefix}.${target}`;
  return nameWireLength(out) > 255 ? undefined : out;
}

/** RFC 6672 §2.2: the synthesized CNAME takes the DNAME's TTL, as NSD and Knot give it. */
function synthesized(target: string, ttl: number): RRset {
  return { type: T_CNAME, ttl, rdatas: [nameWire(target)], targets: [target] };
}

/** RFC 6672 §2.2: YXDOMAIN after the DNAME; NSD explains it in an Extended DNS Error. */
function tooLong(res: Resolution): Resolution {
  res.rcode = RCODE_YXDOMAIN;
  res.ede = { code: EDE_OTHER, text: "DNAME expansion became too large" };
  return res;
}
