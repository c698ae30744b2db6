/**
 * Response messages from parts: the header (ID, opcode and RD copied from the
 * query), the query's question, the resolution's RRsets, and our OPT record
 * (RFC 6891 §6.1.2) with an Extended DNS Error when there is one (RFC 8914).
 * `buildResponse` fits the answer to the transport's limit as NSD does.
 */
import { compressMessage } from "./compress.ts";
import { encodeMessage, nameWire, type WireRecord } from "./encode.ts";
import type { Query } from "./query.ts";
import type { Ede, Resolution, RRsetAt } from "./resolve.ts";

/** What our OPT record says: the DO bit echoed and our UDP payload size. */
export interface EdnsReply {
  do: boolean;
  payload: number;
}

const T_OPT = 41;
const EDE_OPTION = 15;
const EMPTY = new Uint8Array(0);
const ROOT = new Uint8Array([0]);

/** The records of an RRset, with the wire RDATA the index holds. */
export function toRecords(s: RRsetAt, owner = nameWire(s.owner)): WireRecord[] {
  const ttl = s.ttl ?? s.set.ttl;
  const type = s.set.type;
  return s.set.rdatas.map((rdata) => ({ owner, type, ttl, rdata }));
}

function header(
  msg: Uint8Array,
  q: Query | null,
  rcode: number,
  aa: boolean,
  tc: boolean,
  counts: number[],
): Uint8Array {
  const h = new Uint8Array(12);
  h[0] = msg[0];
  h[1] = msg[1];
  const opcode = q ? q.opcode : (msg[2] >> 3) & 0xf;
  // QR, opcode, AA, TC; RD copied; RA never (no recursion); CD cleared as
  // NSD does for authoritative answers.
  h[2] = 0x80 | (opcode << 3) | (aa ? 0x04 : 0) | (tc ? 0x02 : 0) | (msg[2] & 0x01);
  h[3] = rcode & 0x0f;
  setCounts(h, counts);
  return h;
}

function setCounts(h: Uint8Array, counts: number[]): void {
  for (let i = 0; i < 4; i++) {
    h[4 + 2 * i] = counts[i] >> 8;
    h[5 + 2 * i] = counts[i] & 255;
  }
}

/** FORMERR/NOTIMP without a question, for messages whose question cannot be read. */
export function errorOnly(msg: Uint8Array, rcode: number): Uint8Array {
  return header(msg, null, rcode, false, false, [0, 0, 0, 0]);
}

/** RFC 6891 §6.1.2: root owner, type 41, class = payload size, TTL = ext-rcode, version 0, DO echoed. */
function optRecord(edns: EdnsReply, rcode: number, ede: Ede | undefined): WireRecord {
  const ttl = (((rcode >> 4) << 24) | (edns.do ? 0x8000 : 0)) >>> 0;
  const opt = { owner: ROOT, type: T_OPT, class: edns.payload, ttl, rdata: EMPTY };
  if (!ede) return opt;
  // RFC 8914 §2: OPTION-CODE 15, its length, INFO-CODE, then EXTRA-TEXT (ours is ASCII).
  const text = ede.text ?? "";
  const rdata = new Uint8Array(6 + text.length);
  rdata[1] = EDE_OPTION;
  rdata[2] = (2 + text.length) >> 8;
  rdata[3] = (2 + text.length) & 255;
  rdata[4] = ede.code >> 8;
  rdata[5] = ede.code & 255;
  for (let i = 0; i < text.length; i++) rdata[6 + i] = text.charCodeAt(i);
  return { ...opt, rdata };
}

/** One message from already-made records (zone transfer). */
export function buildRaw(
  msg: Uint8Array,
  q: Query,
  rcode: number,
  aa: boolean,
  withQuestion: boolean,
  edns: EdnsReply | null,
  records: WireRecord[],
): Uint8Array {
  const counts = [withQuestion ? 1 : 0, records.length, 0, edns ? 1 : 0];
  const h = header(msg, q, rcode, aa, false, counts);
  const head = withQuestion ? concat(h, msg.subarray(12, q.questionEnd)) : h;
  const all = edns ? [...records, optRecord(edns, rcode, undefined)] : records;
  return compressMessage(encodeMessage(head, all));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * A response with the query's question, `res`'s sections, OPT when the query
 * had one, within `limit` bytes. When the whole does not fit, RRsets are kept
 * in order (answer, authority, additional) as long as they fit, and the rest
 * left out, as NSD does; TC is set only when a left-out RRset is not optional
 * (RFC 2181 §9): the answer, the SOA of a negative answer, a referral's NS and
 * its in-domain glue (RFC 9471) are required, the zone's NS beside a positive
 * answer and other additional data are not.
 */
export function buildResponse(
  msg: Uint8Array,
  q: Query,
  rcode: number,
  aa: boolean,
  edns: EdnsReply | null,
  res: Partial<Resolution>,
  limit: number,
): Uint8Array {
  const sets = [...(res.answer ?? []), ...(res.authority ?? []), ...(res.additional ?? [])];
  const records: WireRecord[] = [];
  /** Index in `records` just past each RRset of `sets`. */
  const setEnds: number[] = [];
  for (const s of sets) {
    for (const r of toRecords(s)) records.push(r);
    setEnds.push(records.length);
  }
  const an = res.answer?.length ?? 0;
  const ns = res.authority?.length ?? 0;
  const counts = sectionCounts(setEnds, an, ns, sets.length, edns !== null);
  if (edns) records.push(optRecord(edns, rcode, res.ede));
  const head = concat(header(msg, q, rcode, aa, false, counts), msg.subarray(12, q.questionEnd));
  const ends: number[] = [];
  const full = compressMessage(encodeMessage(head, records), ends);
  if (full.length <= limit) return full;
  return truncated(full, q, { ends, setEnds, sets, an, ns, opt: edns !== null }, limit);
}

/** QDCOUNT, ANCOUNT, NSCOUNT, ARCOUNT of the first `kept` RRsets (`an` answer, `ns` authority, then additional). */
function sectionCounts(
  setEnds: number[],
  an: number,
  ns: number,
  kept: number,
  opt: boolean,
): number[] {
  const count = (from: number, to: number) => {
    const upTo = Math.min(to, kept);
    return upTo <= from ? 0 : setEnds[upTo - 1] - (from ? setEnds[from - 1] : 0);
  };
  return [1, count(0, an), count(an, an + ns), count(an + ns, kept) + (opt ? 1 : 0)];
}

/** How the records of a whole message lie, for cutting it short. */
interface Layout {
  /** Offset just past each record (OPT last), from compressMessage. */
  ends: number[];
  /** Index of records just past each RRset of `sets`. */
  setEnds: number[];
  sets: RRsetAt[];
  /** RRsets in the answer and authority sections. */
  an: number;
  ns: number;
  opt: boolean;
}

/** `full` cut after the RRsets that fit in `limit` with the OPT record, TC set if a required one is left out. */
function truncated(full: Uint8Array, q: Query, l: Layout, limit: number): Uint8Array {
  const { ends, setEnds, sets } = l;
  /** Offset just past the first `k` RRsets. */
  const bodyEnd = (k: number) => (k === 0 ? q.questionEnd : ends[setEnds[k - 1] - 1]);
  const opt = full.subarray(bodyEnd(sets.length));
  let kept = 0;
  while (kept < sets.length && bodyEnd(kept + 1) + opt.length <= limit) kept++;
  const end = bodyEnd(kept);
  const out = new Uint8Array(end + opt.length);
  out.set(full.subarray(0, end), 0);
  out.set(opt, end);
  setCounts(out, sectionCounts(setEnds, l.an, l.ns, kept, l.opt));
  if (sets.slice(kept).some((s) => !s.optional)) out[2] |= 0x02;
  return out;
}
