/**
 * Turns a query message into response messages: header checks (FORMERR,
 * NOTIMP, REFUSED), EDNS0 (RFC 6891: OPT echoed, 1232-byte UDP payload,
 * BADVERS), truncation with TC, zone transfers over TCP, and a cache of
 * encoded answers. The cache holds one template per (name, type, class, EDNS
 * shape); a hit copies it and patches the ID, RD/CD and the query's name case,
 * which keeps the hot path free of decoding and encoding.
 */
import { Buffer } from "node:buffer";
import { type DataRecord, decodedBytes, dnsPacket } from "./packet.ts";
import { compressMessage } from "./compress.ts";
import { type Query, readQuery } from "./query.ts";
import {
  RCODE_FORMERR,
  RCODE_NOTAUTH,
  RCODE_NOTIMP,
  RCODE_REFUSED,
  type Resolution,
  resolve,
  type RRsetAt,
} from "./resolve.ts";
import { serialGreater } from "./soa.ts";
import { type DnsIndex, T_SOA, type ZoneData } from "./zone_index.ts";

export interface ResponderOptions {
  /** Peers allowed to transfer zones (AXFR/IXFR); others get REFUSED. */
  axfrAllowed: (ip: string) => boolean;
  /** Largest UDP response we send and advertise (RFC 6891 §6.2.5; DNS Flag Day 2020: 1232). */
  udpPayload?: number;
  /** Most cached answers before the cache is emptied. */
  cacheSize?: number;
}

const T_OPT = 41;
const T_TSIG = 250;
const T_IXFR = 251;
const T_AXFR = 252;
const C_IN = 1;
const C_ANY = 255;
const OPCODE_QUERY = 0;
const OPCODE_NOTIFY = 4;
const OPCODE_UPDATE = 5;
const BADVERS = 16;
const TCP_LIMIT = 65535;
/** AXFR messages are kept well under the 64 KiB TCP limit. */
const XFR_MESSAGE = 16_000;

interface Template {
  bytes: Uint8Array;
  /** [destination, source offset in the query, length]: name bytes to copy in the query's case. */
  patches: number[];
}

export type Transport = "udp" | "tcp";

/** What our OPT record says: the DO bit echoed and our UDP payload size. */
interface EdnsReply {
  do: boolean;
  payload: number;
}

export class DnsResponder {
  readonly #udpPayload: number;
  readonly #cacheSize: number;
  #cache = new Map<string, Template>();
  #generation = -1;

  constructor(private readonly index: DnsIndex, private readonly options: ResponderOptions) {
    this.#udpPayload = options.udpPayload ?? 1232;
    this.#cacheSize = options.cacheSize ?? 20_000;
  }

  /** The response to a UDP query, or null when nothing should be sent. */
  udp(msg: Uint8Array, ip: string): Uint8Array | null {
    return this.respond(msg, "udp", ip)?.[0] ?? null;
  }

  /** The responses to a TCP query (several for a zone transfer); empty when nothing should be sent. */
  tcp(msg: Uint8Array, ip: string): Uint8Array[] {
    return this.respond(msg, "tcp", ip) ?? [];
  }

  /** Number of cached answers (for tests and metrics). */
  get cached(): number {
    return this.#cache.size;
  }

  private respond(msg: Uint8Array, transport: Transport, ip: string): Uint8Array[] | null {
    if (msg.length < 12 || msg[2] & 0x80) return null; // no ID to answer, or a response: never reply
    const q = readQuery(msg);
    if (this.#generation !== this.index.generation) {
      this.#cache.clear();
      this.#generation = this.index.generation;
    }
    if (q && q.plain && q.opcode === OPCODE_QUERY && q.qtype !== T_AXFR && q.qtype !== T_IXFR) {
      const limit = transport === "tcp" ? TCP_LIMIT : this.limitFor(q);
      const key = q.edns
        ? `${q.name}|${q.qtype}|${q.qclass}|${q.edns.version}|${q.edns.do ? 1 : 0}|${limit}`
        : `${q.name}|${q.qtype}|${q.qclass}|${limit}`;
      const hit = this.#cache.get(key);
      if (hit) return [fromTemplate(hit, msg)];
      const out = this.answer(msg, q, transport, ip);
      if (out.length === 1 && out[0].length >= 12) {
        if (this.#cache.size >= this.#cacheSize) this.#cache.clear();
        this.#cache.set(key, toTemplate(out[0], q));
      }
      return out;
    }
    if (!q) return [errorOnly(msg, RCODE_FORMERR)];
    if (q.opcode !== OPCODE_QUERY) {
      const rcode = q.opcode === OPCODE_NOTIFY || q.opcode === OPCODE_UPDATE
        ? RCODE_REFUSED
        : RCODE_NOTIMP;
      return [build(msg, q, rcode, false, null, {}, 512)];
    }
    if (!q.plain && !this.checkFull(msg, q)) return [errorOnly(msg, RCODE_FORMERR)];
    return this.answer(msg, q, transport, ip);
  }

  /**
   * Full decode for messages that are not a bare question (+ OPT): any
   * malformation is FORMERR; the OPT, if any, is taken from here.
   */
  private checkFull(msg: Uint8Array, q: Query): boolean {
    try {
      const p = dnsPacket.decode(Buffer.from(msg.buffer, msg.byteOffset, msg.length));
      if (decodedBytes() !== msg.length) return false;
      if (p.answers.length > 0) return false;
      if (p.authorities.length > 0 && q.qtype !== T_IXFR) return false;
      const opts = p.additionals.filter((r) => r.type === "OPT");
      if (opts.length > 1) return false;
      if (opts.length === 1) {
        const o = opts[0] as {
          name: string;
          udpPayloadSize: number;
          ednsVersion: number;
          flag_do: boolean;
        };
        if (o.name !== ".") return false;
        q.edns = { version: o.ednsVersion, do: o.flag_do, udpSize: o.udpPayloadSize };
      }
      if (p.additionals.some((r) => (r as DataRecord).type === "TSIG")) {
        (q as { tsig?: boolean }).tsig = true;
      }
      if (q.qtype === T_IXFR) {
        const soa = p.authorities.find((r) => r.type === "SOA") as DataRecord | undefined;
        q.clientSerial = soa?.data?.serial;
      }
      return true;
    } catch {
      return false;
    }
  }

  private limitFor(q: Query): number {
    if (!q.edns) return 512;
    return Math.min(Math.max(512, q.edns.udpSize), this.#udpPayload);
  }

  private ednsReply(q: Query): EdnsReply | null {
    return q.edns ? { do: q.edns.do, payload: this.#udpPayload } : null;
  }

  private answer(msg: Uint8Array, q: Query, transport: Transport, ip: string): Uint8Array[] {
    const edns = this.ednsReply(q);
    const limit = transport === "tcp" ? TCP_LIMIT : this.limitFor(q);
    if (q.edns && q.edns.version > 0) return [build(msg, q, BADVERS, false, edns, {}, limit)];
    if ((q as { tsig?: boolean }).tsig) {
      return [build(msg, q, RCODE_NOTAUTH, false, edns, {}, limit)];
    }
    if (q.qtype === T_OPT || q.qtype === T_TSIG) {
      return [build(msg, q, RCODE_FORMERR, false, edns, {}, limit)];
    }
    if (q.qclass !== C_IN && q.qclass !== C_ANY) {
      return [build(msg, q, RCODE_REFUSED, false, edns, {}, limit)];
    }
    if (q.qtype === T_AXFR || q.qtype === T_IXFR) return this.transfer(msg, q, transport, ip);
    if (q.qtype >= 128 && q.qtype <= 254) {
      return [build(msg, q, RCODE_NOTIMP, false, edns, {}, limit)];
    }
    const zone = this.index.findZone(q.name);
    if (!zone) return [build(msg, q, RCODE_REFUSED, false, edns, {}, limit)];
    const res = resolve(zone, q.name, q.qtype);
    return [build(msg, q, res.rcode, res.aa, edns, res, limit)];
  }

  private transfer(msg: Uint8Array, q: Query, transport: Transport, ip: string): Uint8Array[] {
    const edns = this.ednsReply(q);
    const limit = transport === "tcp" ? TCP_LIMIT : this.limitFor(q);
    if (!this.options.axfrAllowed(ip)) {
      return [build(msg, q, RCODE_REFUSED, false, edns, {}, limit)];
    }
    const zone = this.index.zone(q.name);
    if (!zone) return [build(msg, q, RCODE_NOTAUTH, false, edns, {}, limit)];
    const soa: RRsetAt = { owner: zone.name, set: zone.nodes.get(zone.name)!.get(T_SOA)! };
    const clientSerial = q.clientSerial;
    if (
      q.qtype === T_IXFR &&
      (transport === "udp" ||
        (clientSerial !== undefined && !serialGreater(zone.serial, clientSerial)))
    ) {
      // RFC 1995 §4: up to date, or UDP: the SOA alone tells the client what to do.
      return [build(msg, q, 0, true, edns, { answer: [soa] }, limit)];
    }
    if (transport === "udp") return [build(msg, q, RCODE_REFUSED, false, edns, {}, limit)];
    // RFC 5936: SOA first and last; IXFR is answered the same way (RFC 1995 §4 allows a full transfer).
    const rrs = axfrRecords(zone);
    const out: Uint8Array[] = [];
    let batch: DataRecord[] = [];
    let size = 0;
    const flush = () => {
      out.push(
        buildRaw(msg, q, 0, true, out.length === 0, out.length === 0 ? edns : null, [
          batch,
          [],
          [],
        ]),
      );
      batch = [];
      size = 0;
    };
    for (const rr of rrs) {
      const n = rr.name.length + 12 + (rr.data as Buffer).length;
      if (size + n > XFR_MESSAGE && batch.length) flush();
      batch.push(rr);
      size += n;
    }
    flush();
    return out;
  }
}

function axfrRecords(zone: ZoneData): DataRecord[] {
  const list: DataRecord[] = [];
  const soa = zone.nodes.get(zone.name)!.get(T_SOA)!;
  const soaRR = toRecords({ owner: zone.name, set: soa })[0];
  list.push(soaRR);
  for (const [owner, node] of zone.nodes) {
    for (const set of node.values()) {
      if (set.type === T_SOA) continue;
      list.push(...toRecords({ owner, set }));
    }
  }
  list.push(soaRR);
  return list;
}

function toRecords(s: RRsetAt): DataRecord[] {
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
function errorOnly(msg: Uint8Array, rcode: number): Uint8Array {
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
function buildRaw(
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
function build(
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

/**
 * A cacheable copy of `resp`. Every other copy of the query name in it is a
 * compression pointer to the question, so patching the question carries the
 * next query's case into the whole answer.
 */
function toTemplate(resp: Uint8Array, q: Query): Template {
  const bytes = resp.slice();
  bytes[0] = 0;
  bytes[1] = 0;
  bytes[2] &= ~0x01;
  return { bytes, patches: [12, 12, q.nameEnd - 12] };
}

function fromTemplate(t: Template, msg: Uint8Array): Uint8Array {
  const out = t.bytes.slice();
  out[0] = msg[0];
  out[1] = msg[1];
  out[2] |= msg[2] & 0x01;
  const p = t.patches;
  for (let i = 0; i < p.length; i += 3) out.set(msg.subarray(p[i + 1], p[i + 1] + p[i + 2]), p[i]);
  return out;
}
