/**
 * Zone transfers over TCP, in messages well under the 64 KiB TCP limit: AXFR,
 * and IXFR answered from the zone's journal (ixfr/), or as a full transfer
 * when the journal cannot (RFC 1995 §4). Over UDP an IXFR gets the difference
 * when it fits one message, else the SOA alone (RFC 1995 §2), and an AXFR is
 * NOTIMP. An IXFR without the client's SOA in the authority section is
 * malformed (RFC 1995 §3).
 */
import type { WireRecord } from "./encode.ts";
import type { Query } from "./query.ts";
import {
  EDE_PROHIBITED,
  RCODE_FORMERR,
  RCODE_NOTAUTH,
  RCODE_NOTIMP,
  RCODE_REFUSED,
  type RRsetAt,
} from "./resolve.ts";
import { buildRaw, buildResponse, type EdnsReply, toRecords } from "./response.ts";
import { serialGreater } from "./soa.ts";
import { dnssecTransferRecords } from "./dnssec/signed_transfer.ts";
import { ixfrOverUdp, ixfrRecords } from "./ixfr/ixfr_answer.ts";
import type { Answers } from "./tsig/tsig_answer.ts";
import type { ZoneSigner } from "./dnssec/signer.ts";
import { type DnsIndex, T_SOA, type ZoneData } from "./zone_index.ts";

export const T_IXFR = 251;
export const T_AXFR = 252;
/** AXFR messages are kept well under the 64 KiB TCP limit. */
const XFR_MESSAGE = 16_000;
const PROHIBITED = { code: EDE_PROHIBITED };

/** How a transfer query came and what its responses may carry. */
export interface TransferRequest {
  msg: Uint8Array;
  q: Query;
  transport: "udp" | "tcp";
  /** The client may transfer zones (the AXFR ACL). */
  allowed: boolean;
  edns: EdnsReply | null;
  limit: number;
  /** Signs the transfer of a zone with DNSSEC on. */
  signer: ZoneSigner;
}

/**
 * The responses to an AXFR or IXFR query for a zone of `index`: at once, but
 * later for an IXFR that reads the journal (from the store, as IXFR is rare).
 */
export function zoneTransfer(index: DnsIndex, r: TransferRequest): Answers {
  const { msg, q, transport, edns, limit } = r;
  if (q.qtype === T_AXFR && transport === "udp") {
    // RFC 5936 §4.2: AXFR is TCP only; NSD and Knot answer NOTIMP, before any ACL or zone check.
    return [buildResponse(msg, q, RCODE_NOTIMP, false, edns, {}, limit)];
  }
  const zone = index.zone(q.name);
  if (q.qtype === T_IXFR && q.clientSerial === undefined) {
    // NSD and Knot answer FORMERR over either transport, NOTAUTH when the name is no zone's apex.
    return [buildResponse(msg, q, zone ? RCODE_FORMERR : RCODE_NOTAUTH, false, edns, {}, limit)];
  }
  if (!r.allowed) {
    // NSD says why in an Extended DNS Error (RFC 8914 §4.19).
    return [buildResponse(msg, q, RCODE_REFUSED, false, edns, { ede: PROHIBITED }, limit)];
  }
  if (!zone) return [buildResponse(msg, q, RCODE_NOTAUTH, false, edns, {}, limit)];
  const upToDate = q.qtype === T_IXFR && !serialGreater(zone.serial, q.clientSerial!);
  if (q.qtype === T_IXFR && !upToDate) {
    // A copy of the query: the answer comes after the store, and the listener reuses its buffer.
    const own = { ...r, msg: r.msg.slice() };
    return ixfrRecords(index.journal, zone, q.clientSerial!).then((diff) =>
      transferOf(own, zone, upToDate, diff)
    );
  }
  return transferOf(r, zone, upToDate, undefined);
}

/** The transfer once the journal is read: `diff` is the IXFR from it, if it has one. */
function transferOf(
  r: TransferRequest,
  zone: ZoneData,
  upToDate: boolean,
  diff: WireRecord[] | undefined,
): Uint8Array[] {
  const { msg, q, transport, edns, limit } = r;
  const soa: RRsetAt = { owner: zone.name, set: zone.nodes.get(zone.name)!.get(T_SOA)! };
  if (diff && transport === "tcp") return transferMessages(msg, q, edns, diff);
  const one = diff && ixfrOverUdp(msg, q, edns, limit, diff);
  if (one) return [one];
  if (q.qtype === T_IXFR && (transport === "udp" || upToDate)) {
    // RFC 1995 §2, §4: up to date, or UDP without room: the SOA alone tells the client what to do.
    return [buildResponse(msg, q, 0, true, edns, { answer: [soa] }, limit)];
  }
  // RFC 5936: SOA first and last; an IXFR the journal cannot answer gets the same (RFC 1995 §4).
  return transferMessages(msg, q, edns, axfrRecords(zone, r.signer));
}

/** `rrs` in messages of at most XFR_MESSAGE bytes; the first carries the question and OPT. */
function transferMessages(
  msg: Uint8Array,
  q: Query,
  edns: EdnsReply | null,
  rrs: WireRecord[],
): Uint8Array[] {
  const out: Uint8Array[] = [];
  let batch: WireRecord[] = [];
  let size = 0;
  const flush = () => {
    out.push(
      buildRaw(msg, q, 0, true, out.length === 0, out.length === 0 ? edns : null, batch),
    );
    batch = [];
    size = 0;
  };
  for (const rr of rrs) {
    const n = rr.owner.length + 10 + rr.rdata.length;
    if (size + n > XFR_MESSAGE && batch.length) flush();
    batch.push(rr);
    size += n;
  }
  flush();
  return out;
}

function axfrRecords(zone: ZoneData, signer: ZoneSigner): WireRecord[] {
  const list: WireRecord[] = [];
  const soa = zone.nodes.get(zone.name)!.get(T_SOA)!;
  const soaRR = toRecords({ owner: zone.name, set: soa })[0];
  list.push(soaRR);
  for (const [owner, node] of zone.nodes) {
    for (const set of node.values()) {
      if (set.type === T_SOA) continue;
      for (const r of toRecords({ owner, set })) list.push(r);
    }
  }
  // A signed zone travels signed, with its full NSEC chain (RFC 4035 §2).
  if (zone.signingKeys.length) {
    for (const r of dnssecTransferRecords(zone, signer, Date.now() / 1000)) list.push(r);
  }
  list.push(soaRR);
  return list;
}
