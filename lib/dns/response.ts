/**
 * Response messages from parts: the header (ID, opcode and RD copied from the
 * query), the query's question, encoded sections, and our OPT record (RFC
 * 6891 §6.1.2). `buildResponse` truncates to the transport's limit with TC.
 */
import { compressMessage } from "./compress.ts";
import { type DataRecord, dnsPacket } from "./packet.ts";
import type { Query } from "./query.ts";
import type { Resolution, RRsetAt } from "./resolve.ts";

/** What our OPT record says: the DO bit echoed and our UDP payload size. */
export interface EdnsReply {
  do: boolean;
  payload: number;
}

/** The records of an RRset, with the wire RDATA the index holds. */
export function toRecords(s: RRsetAt): DataRecord[] {
  const name = s.owner;
  const ttl = s.ttl ?? s.set.ttl;
  // dns-packet writes data of an UNKNOWN_<n> type as raw bytes: the index already holds wire RDATA.
  const type = `UNKNOWN_${s.set.type}`;
  return s.set.rdatas.map((data) => ({ name, type, class: "IN", ttl, data }));
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
  for (let i = 0; i < 4; i++) {
    h[4 + 2 * i] = counts[i] >> 8;
    h[5 + 2 * i] = counts[i] & 255;
  }
  return h;
}

/** FORMERR/NOTIMP without a question, for messages whose question cannot be read. */
export function errorOnly(msg: Uint8Array, rcode: number): Uint8Array {
  return header(msg, null, rcode, false, false, [0, 0, 0, 0]);
}

function optRecord(edns: EdnsReply, rcode: number): Uint8Array {
  const payload = edns.payload;
  // RFC 6891 §6.1.2: root owner, type 41, class = payload size, TTL = ext-rcode, version 0, DO echoed.
  return new Uint8Array([
    0,
    0,
    41,
    payload >> 8,
    payload & 255,
    rcode >> 4,
    0,
    edns.do ? 0x80 : 0,
    0,
    0,
    0,
  ]);
}

function encodeSection(records: DataRecord[][]): Uint8Array {
  if (records.every((r) => r.length === 0)) return new Uint8Array(0);
  const buf = dnsPacket.encode({
    answers: records[0],
    authorities: records[1],
    additionals: records[2],
  });
  return buf.subarray(12);
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** One message from already-made records (zone transfer). */
export function buildRaw(
  msg: Uint8Array,
  q: Query,
  rcode: number,
  aa: boolean,
  withQuestion: boolean,
  edns: EdnsReply | null,
  sections: DataRecord[][],
): Uint8Array {
  const body = encodeSection(sections);
  const opt = edns ? optRecord(edns, rcode) : new Uint8Array(0);
  const counts = [
    withQuestion ? 1 : 0,
    sections[0].length,
    sections[1].length,
    sections[2].length + (edns ? 1 : 0),
  ];
  return compressMessage(concat([
    header(msg, q, rcode, aa, false, counts),
    withQuestion ? msg.subarray(12, q.questionEnd) : new Uint8Array(0),
    body,
    opt,
  ]));
}

/**
 * A response with the query's question, `res`'s sections, OPT when the query
 * had one, truncated to `limit`: optional additional data goes first; if the
 * answer still does not fit (or a referral loses its glue), TC is set and
 * only the question and OPT are sent.
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
  const conv = (list: RRsetAt[] | undefined) => (list ?? []).flatMap(toRecords);
  const answer = conv(res.answer);
  const authority = conv(res.authority);
  const additional = conv(res.additional);
  const question = msg.subarray(12, q.questionEnd);
  const opt = edns ? optRecord(edns, rcode) : new Uint8Array(0);
  const extra = edns ? 1 : 0;
  const main = encodeSection([answer, authority, []]);
  const add = encodeSection([[], [], additional]);
  const full = compressMessage(concat([
    header(msg, q, rcode, aa, false, [
      1,
      answer.length,
      authority.length,
      additional.length + extra,
    ]),
    question,
    main,
    add,
    opt,
  ]));
  if (full.length <= limit) return full;
  if (!res.referral) {
    const bare = compressMessage(concat([
      header(msg, q, rcode, aa, false, [1, answer.length, authority.length, extra]),
      question,
      main,
      opt,
    ]));
    if (bare.length <= limit) return bare;
  }
  return concat([header(msg, q, rcode, aa, true, [1, 0, 0, extra]), question, opt]);
}
