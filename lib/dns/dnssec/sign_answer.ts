/**
 * A resolution made into a signed answer (RFC 4035 §3.1), for a query with
 * the DO bit: after every RRset a zone of ours is authoritative for, its
 * RRSIG; for every step of the lookup that needs one, the denial (NSEC white
 * lies, denial.ts) or the DS of a delegation, with their RRSIGs. The
 * responder calls this and nothing else of DNSSEC.
 *
 * Which zone signs an RRset: the closest enclosing zone served here, except
 * DS at a zone's apex, which the parent signs when it is served here too
 * (RFC 4035 §2.4). Nothing at or below a delegation is signed (NS of a cut,
 * glue), except the DS at the cut. A CNAME synthesized from a DNAME is not
 * signed (RFC 6672 §5.3.1). A zone without active keys is answered unsigned.
 */
import type { Proof, Resolution, RRsetAt } from "../resolve.ts";
import { findCut, type RRset, type ZoneData } from "../zone_index.ts";
import {
  nodataProof,
  type NsecRRset,
  nxdomainProof,
  wildcardAnswerProof,
  wildcardNodataProof,
} from "./denial.ts";
import { T_NSEC } from "./nsec.ts";
import { T_RRSIG } from "./rrsig.ts";
import { keysFor, type ZoneSigner } from "./signer.ts";

const T_DS = 43;
/** The key RRsets are in the zone's nodes already (apex.ts): denial adds no apex types. */
const DENIAL = { apexTypes: [] };

/** Finds the zone served here that holds a name. */
export interface ZoneLookup {
  /** The zone that answers (and signs) `type` at `name` (DnsIndex.findZoneFor). */
  findZoneFor(name: string, type: number): ZoneData | undefined;
}

/** The zone whose keys sign `set` at `owner`, or undefined when no signature belongs there. */
function signingZone(zones: ZoneLookup, owner: string, type: number): ZoneData | undefined {
  const z = zones.findZoneFor(owner, type);
  if (!z || z.signingKeys.length === 0) return undefined;
  // At or below a cut only the DS at the cut is the zone's to sign.
  const cut = findCut(z, owner, type);
  return cut === undefined ? z : undefined;
}

/** The RRSIG RRset of `at`, signed by zone `z`, sent with `at`'s TTL. */
function rrsigOf(
  signer: ZoneSigner,
  z: ZoneData,
  at: RRsetAt,
  now: number,
  cache: boolean,
): RRsetAt {
  const set = at.set;
  const rrsigs = signer.sign(
    { owner: at.wildcard ?? at.owner, type: set.type, ttl: set.ttl, rdatas: set.rdatas },
    z.name,
    keysFor(set.type, z.signingKeys),
    now,
    { cache },
  );
  const sigSet: RRset = { type: T_RRSIG, ttl: at.ttl ?? set.ttl, rdatas: rrsigs, targets: [] };
  return { owner: at.owner, set: sigSet, ttl: at.ttl, optional: at.optional };
}

/** `sets` with the RRSIG of each signable one right after it. */
function withSignatures(
  zones: ZoneLookup,
  signer: ZoneSigner,
  sets: RRsetAt[],
  now: number,
): RRsetAt[] {
  const out: RRsetAt[] = [];
  for (const at of sets) {
    out.push(at);
    if (at.synthesized || at.set.type === T_RRSIG) continue;
    const z = signingZone(zones, at.wildcard ?? at.owner, at.set.type);
    if (z) out.push(rrsigOf(signer, z, at, now, true));
  }
  return out;
}

/** The NSEC RRsets (or DS) one lookup step needs, as RRsets of the authority section. */
function proofSets(p: Proof): { sets: RRsetAt[]; cache: boolean[] } {
  const z = p.zone;
  let nsecs: NsecRRset[];
  switch (p.kind) {
    case "nxdomain":
      nsecs = nxdomainProof(z, p.name, DENIAL);
      break;
    case "nodata":
      nsecs = nodataProof(z, p.name, DENIAL);
      break;
    case "wildcard":
      nsecs = wildcardAnswerProof(z, p.name, DENIAL);
      break;
    case "wildcard-nodata":
      nsecs = wildcardNodataProof(z, p.name, DENIAL);
      break;
    case "referral": {
      // A secure delegation: its DS; an insecure one: the NSEC at the cut without DS.
      const ds = z.nodes.get(p.name)?.get(T_DS);
      if (ds) return { sets: [{ owner: p.name, set: ds }], cache: [true] };
      nsecs = nodataProof(z, p.name, DENIAL);
      break;
    }
  }
  return {
    sets: nsecs.map((n) => ({
      owner: n.owner,
      set: { type: T_NSEC, ttl: n.ttl, rdatas: n.rdatas, targets: [] },
    })),
    cache: nsecs.map((n) => n.reusable),
  };
}

/**
 * Adds RRSIGs and proofs to `res` in place for a DO query, signing at `now`
 * (Unix seconds). Proofs go into the authority section before its optional
 * RRsets (the zone's NS beside a positive answer), so that a message cut
 * short loses what the answer can do without first.
 */
export function signAnswer(
  zones: ZoneLookup,
  signer: ZoneSigner,
  res: Resolution,
  now: number,
): void {
  res.answer = withSignatures(zones, signer, res.answer, now);
  const proofs: RRsetAt[] = [];
  const seen = new Set<string>();
  for (const p of res.proofs) {
    if (p.zone.signingKeys.length === 0) continue;
    const { sets, cache } = proofSets(p);
    sets.forEach((at, i) => {
      const key = `${at.owner}|${at.set.type}`;
      if (seen.has(key)) return;
      seen.add(key);
      proofs.push(at, rrsigOf(signer, p.zone, at, now, cache[i]));
    });
  }
  const authority = withSignatures(zones, signer, res.authority, now);
  const firstOptional = authority.findIndex((a) => a.optional);
  const at = firstOptional < 0 ? authority.length : firstOptional;
  res.authority = [...authority.slice(0, at), ...proofs, ...authority.slice(at)];
  res.additional = withSignatures(zones, signer, res.additional, now);
}
