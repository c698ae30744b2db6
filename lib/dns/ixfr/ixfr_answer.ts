/**
 * The records of an incremental zone transfer (RFC 1995 §4) from the zone's
 * journal: the current SOA, then per journal step the old SOA, the records
 * deleted, the new SOA, the records added, and the current SOA again. None
 * (the caller falls back to a full transfer) when the client's serial is not
 * in the journal (older than its oldest step, or never one of ours), when the
 * journal does not reach the serial the zone is served at, or when the zone
 * is signed: a signed zone keeps no journal (ixfr/journal_write.ts).
 *
 * IXFR is rare, so its journal is read from the store per query, unlike
 * answers, which come from the in-memory index only.
 */
import { nameWire, type WireRecord } from "../encode.ts";
import type { Query } from "../query.ts";
import { buildRaw, type EdnsReply, toRecords } from "../response.ts";
import { T_SOA, type ZoneData } from "../zone_index.ts";
import type { JournalRepo } from "./journal_repo.ts";

/** What an IXFR answer reads of the journal. */
export type IxfrJournal = Pick<JournalRepo, "versions" | "entries">;

/** The incremental transfer from `clientSerial` to the served serial of `zone`, or undefined. */
export async function ixfrRecords(
  journal: IxfrJournal,
  zone: ZoneData,
  clientSerial: number,
): Promise<WireRecord[] | undefined> {
  if (zone.signingKeys.length) return undefined;
  const versions = await journal.versions(zone.name);
  const start = versions.findIndex((v) => v.serial_from === clientSerial);
  if (start < 0) return undefined;
  const end = versions.findIndex((v, i) => i >= start && v.serial_to === zone.serial);
  if (end < 0) return undefined;
  // Steps are stored as one unbroken chain (journal_write.ts); check it anyway.
  for (let i = start + 1; i <= end; i++) {
    if (versions[i].serial_from !== versions[i - 1].serial_to) return undefined;
  }
  const soa = toRecords({ owner: zone.name, set: zone.nodes.get(zone.name)!.get(T_SOA)! })[0];
  const names = new Map<string, Uint8Array>();
  const owner = (n: string) => names.get(n) ?? names.set(n, nameWire(n)).get(n)!;
  const rrs: WireRecord[] = [soa];
  for (const e of await journal.entries(zone.name, versions[start].first, versions[end].last)) {
    rrs.push({ owner: owner(e.name), type: e.type, ttl: e.ttl, rdata: e.rdata });
  }
  rrs.push(soa);
  return rrs;
}

/**
 * The incremental transfer in one UDP message when it fits `limit`; undefined
 * otherwise, and the client is then sent the SOA alone (RFC 1995 §2).
 */
export function ixfrOverUdp(
  msg: Uint8Array,
  q: Query,
  edns: EdnsReply | null,
  limit: number,
  rrs: WireRecord[],
): Uint8Array | undefined {
  let size = 12;
  for (const r of rrs) size += r.owner.length + 10 + r.rdata.length;
  // Compression only shrinks it; a generous bound saves building what cannot fit.
  if (size > limit * 4) return undefined;
  const out = buildRaw(msg, q, 0, true, true, edns, rrs);
  return out.length <= limit ? out : undefined;
}
