/**
 * The signed zone a transfer carries (RFC 4035 §2): the zone's RRsets with
 * an RRSIG each (what a cut holds only for DS), the full NSEC chain with its
 * RRSIGs, and the apex key RRsets. Online answers deny with white lies
 * (denial.ts); a secondary holds the whole zone anyway, so it gets the real
 * chain, which any validating secondary or resolver checks the usual way.
 */
import { nameWire, type WireRecord } from "../encode.ts";
import type { ZoneData } from "../zone_index.ts";
import { nsecChain, signedRRsets } from "./nsec_chain.ts";
import { T_NSEC } from "./nsec.ts";
import { T_RRSIG } from "./rrsig.ts";
import { keysFor, type ZoneSigner } from "./signer.ts";
import type { RRsetToSign } from "./types.ts";

/** The key RRsets are in the zone's nodes already (apex.ts): the chain adds no apex types. */
const DENIAL = { apexTypes: [] };

/**
 * What a transfer of signed zone `z` carries besides its records: an RRSIG
 * for every RRset the zone signs (what a cut holds only for DS; glue none),
 * then each NSEC of the chain and its RRSIG, signed at `now` (Unix seconds).
 */
export function dnssecTransferRecords(z: ZoneData, signer: ZoneSigner, now: number): WireRecord[] {
  const out: WireRecord[] = [];
  const sign = (rrset: RRsetToSign) => {
    const owner = nameWire(rrset.owner);
    for (const rdata of signer.sign(rrset, z.name, keysFor(rrset.type, z.signingKeys), now)) {
      out.push({ owner, type: T_RRSIG, ttl: rrset.ttl, rdata });
    }
  };
  for (const { owner, set } of signedRRsets(z)) {
    sign({ owner, type: set.type, ttl: set.ttl, rdatas: set.rdatas });
  }
  for (const n of nsecChain(z, DENIAL)) {
    const owner = nameWire(n.owner);
    for (const rdata of n.rdatas) out.push({ owner, type: T_NSEC, ttl: n.ttl, rdata });
    sign({ owner: n.owner, type: T_NSEC, ttl: n.ttl, rdatas: n.rdatas });
  }
  return out;
}
