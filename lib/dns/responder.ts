/**
 * Turns a query message into response messages: header checks (silence for
 * a message without a readable question, FORMERR, NOTIMP, REFUSED), EDNS0 (RFC 6891: OPT echoed, 1232-byte UDP payload,
 * BADVERS), truncation with TC, zone transfers over TCP, and a cache of
 * encoded answers. The cache holds one template per (name, type, class, EDNS
 * shape); a hit copies it and patches the ID, RD/CD and the query's name case,
 * which keeps the hot path free of decoding and encoding.
 */
import { checkFullQuery } from "./full_query.ts";
import { type Query, readQuery } from "./query.ts";
import {
  EDE_NOT_AUTHORITATIVE,
  EDE_NOT_SUPPORTED,
  RCODE_FORMERR,
  RCODE_NOTAUTH,
  RCODE_NOTIMP,
  RCODE_REFUSED,
  resolve,
} from "./resolve.ts";
import { buildResponse, type EdnsReply, errorOnly } from "./response.ts";
import { type ResponseRateLimiter, truncatedAnswer } from "./rrl.ts";
import type { DnsIndex } from "./zone_index.ts";
import { signAnswer } from "./dnssec/sign_answer.ts";
import { ZoneSigner } from "./dnssec/signer.ts";
import { T_AXFR, T_IXFR, zoneTransfer } from "./zone_transfer.ts";
import type { TsigKeyring } from "./tsig/sign.ts";
import { type Answers, keyAllows, tsigAnswer } from "./tsig/tsig_answer.ts";
import type { UpdateHandler } from "./update/dns_update.ts";
import { updateAnswer } from "./update/update_answer.ts";

export interface ResponderOptions {
  /** Peers allowed to transfer zones (AXFR/IXFR); others get REFUSED. */
  axfrAllowed: (ip: string) => boolean;
  /** Largest UDP response we send and advertise (RFC 6891 §6.2.5; DNS Flag Day 2020: 1232). */
  udpPayload?: number;
  /** Most cached answers before the cache is emptied. */
  cacheSize?: number;
  /** Response rate limiting of UDP answers (lib/dns/rrl.ts); none when absent. */
  rrl?: ResponseRateLimiter | null;
  /** Signs answers of zones with DNSSEC on (a fresh one when absent). */
  signer?: ZoneSigner;
  /** TSIG keys (RFC 8945); without them a signed query gets NOTAUTH. */
  tsigKeys?: TsigKeyring;
  /** Applies dynamic updates (RFC 2136); without it every update is REFUSED. */
  updates?: UpdateHandler;
}

/**
 * How long a cached answer is served. Signed answers carry signatures that
 * the signer refreshes with a week of validity left (signer.ts); an hour is
 * far inside that, and costs an unsigned zone one rebuild per answer an hour.
 */
const CACHE_MAX_AGE_MS = 3_600_000;

const C_IN = 1;
const C_ANY = 255;
/** The header's OPCODE values we tell apart (RFC 1035 §4.1.1, RFC 1996, RFC 2136). */
const Opcode = { query: 0, notify: 4, update: 5 } as const;
const BADVERS = 16;
const TCP_LIMIT = 65535;
/** Extended DNS Errors (RFC 8914) of refusals, as NSD gives them to a query with EDNS. */
const NOT_AUTHORITATIVE = { ede: { code: EDE_NOT_AUTHORITATIVE } };
const NOT_SUPPORTED = { ede: { code: EDE_NOT_SUPPORTED } };

interface Template {
  bytes: Uint8Array;
  /** [destination, source offset in the query, length]: name bytes to copy in the query's case. */
  patches: number[];
}

export type Transport = "udp" | "tcp";

export class DnsResponder {
  readonly #udpPayload: number;
  readonly #cacheSize: number;
  #cache = new Map<string, Template>();
  #generation = -1;
  #cacheBorn = 0;
  /** Whether some zone is signed, worked out once per index generation. */
  #anySigned = false;
  readonly #rrl: ResponseRateLimiter | null;
  readonly #signer: ZoneSigner;

  constructor(private readonly index: DnsIndex, private readonly options: ResponderOptions) {
    this.#udpPayload = options.udpPayload ?? 1232;
    this.#cacheSize = options.cacheSize ?? 20_000;
    this.#rrl = options.rrl ?? null;
    this.#signer = options.signer ?? new ZoneSigner();
  }

  /**
   * The response to a UDP query, or null when nothing should be sent. Over
   * its source prefix's rate, an answer is dropped or slips out truncated,
   * before any work is spent on it.
   */
  udp(msg: Uint8Array, ip: string): Uint8Array | null | Promise<Uint8Array | null> {
    if (this.#rrl !== null) return this.#limitedUdp(this.#rrl, msg, ip);
    return first(this.respond(msg, "udp", ip));
  }

  /** udp() behind the rate limiter: kept apart so that the unlimited path stays small. */
  #limitedUdp(
    rrl: ResponseRateLimiter,
    msg: Uint8Array,
    ip: string,
  ): Uint8Array | null | Promise<Uint8Array | null> {
    const verdict = rrl.check(ip, Date.now());
    if (verdict === "drop") return null;
    if (verdict === "slip") {
      const q = msg.length >= 12 && !(msg[2] & 0x80) ? readQuery(msg) : null;
      return q ? truncatedAnswer(msg, q.nameEnd + 4, false) : null;
    }
    return first(this.respond(msg, "udp", ip));
  }

  /** The responses to a TCP query (several for a zone transfer); empty when nothing should be sent. */
  tcp(msg: Uint8Array, ip: string): Answers {
    return this.respond(msg, "tcp", ip) ?? [];
  }

  /** Number of cached answers (for tests and metrics). */
  get cached(): number {
    return this.#cache.size;
  }

  private respond(msg: Uint8Array, transport: Transport, ip: string): Answers | null {
    if (msg.length < 12 || msg[2] & 0x80) return null; // no ID to answer, or a response: never reply
    const q = readQuery(msg);
    if (
      this.#generation !== this.index.generation || Date.now() - this.#cacheBorn > CACHE_MAX_AGE_MS
    ) {
      this.#cache.clear();
      this.#cacheBorn = Date.now();
      this.#generation = this.index.generation;
      this.#anySigned = this.index.anySigned;
    }
    if (q && q.plain && q.opcode === Opcode.query && q.qtype !== T_AXFR && q.qtype !== T_IXFR) {
      const limit = transport === "tcp" ? TCP_LIMIT : this.limitFor(q);
      const key = q.edns
        ? `${q.name}|${q.qtype}|${q.qclass}|${q.edns.version}|${q.edns.do ? 1 : 0}|${limit}`
        : `${q.name}|${q.qtype}|${q.qclass}|${limit}`;
      const hit = this.#cache.get(key);
      if (hit) return [fromTemplate(hit, msg)];
      const out = this.answer(msg, q, transport, ip);
      if (out instanceof Promise) return out;
      if (out.length === 1 && out[0].length >= 12) {
        if (this.#cache.size >= this.#cacheSize) this.#cache.clear();
        this.#cache.set(key, toTemplate(out[0], q));
      }
      return out;
    }
    // No question to echo (QDCOUNT not 1, a bad or cut name): nothing is sent, as from Knot and
    // from NSD over TCP. Garbage earns no reply, so it cannot be reflected.
    if (!q) return null;
    if (q.opcode === Opcode.update) {
      // A copy: the answer comes after the store, and the listener reuses its receive buffer.
      const own = msg.slice();
      return updateAnswer(own, q, this.options.tsigKeys, this.options.updates, Date.now() / 1000);
    }
    if (q.opcode !== Opcode.query) {
      const rcode = q.opcode === Opcode.notify ? RCODE_REFUSED : RCODE_NOTIMP;
      return [buildResponse(msg, q, rcode, false, null, {}, 512)];
    }
    if (!q.plain && !checkFullQuery(msg, q)) return [errorOnly(msg, RCODE_FORMERR)];
    return this.answer(msg, q, transport, ip);
  }

  private limitFor(q: Query): number {
    if (!q.edns) return 512;
    return Math.min(Math.max(512, q.edns.udpSize), this.#udpPayload);
  }

  private ednsReply(q: Query): EdnsReply | null {
    return q.edns ? { do: q.edns.do, payload: this.#udpPayload } : null;
  }

  private answer(msg: Uint8Array, q: Query, transport: Transport, ip: string): Answers {
    const edns = this.ednsReply(q);
    const limit = transport === "tcp" ? TCP_LIMIT : this.limitFor(q);
    if (q.edns && q.edns.version > 0) {
      return [buildResponse(msg, q, BADVERS, false, edns, {}, limit)];
    }
    if (q.tsig) {
      const keys = this.options.tsigKeys;
      const bare = (rcode: number) => buildResponse(msg, q, rcode, false, edns, {}, limit);
      if (!keys) return [bare(RCODE_NOTAUTH)];
      return tsigAnswer(msg, keys, Date.now() / 1000, (key, reserve) => {
        const isTransfer = q.qtype === T_AXFR || q.qtype === T_IXFR;
        // Address OR key: a transfer from an address of the ACL needs no key, a key needs no address.
        const allowed = this.options.axfrAllowed(ip) || keyAllows(key, q.name, "transfer");
        if (isTransfer && !allowed) return "denied";
        return this.unsigned(msg, q, transport, limit - reserve, allowed);
      }, bare);
    }
    return this.unsigned(msg, q, transport, limit, this.options.axfrAllowed(ip));
  }

  /** The answer once any TSIG is checked; `transferAllowed` says whether AXFR/IXFR may go ahead. */
  private unsigned(
    msg: Uint8Array,
    q: Query,
    transport: Transport,
    limit: number,
    transferAllowed: boolean,
  ): Answers {
    const edns = this.ednsReply(q);
    if (q.qclass !== C_IN && q.qclass !== C_ANY) {
      return [buildResponse(msg, q, RCODE_REFUSED, false, edns, NOT_SUPPORTED, limit)];
    }
    if (q.qtype === T_AXFR || q.qtype === T_IXFR) {
      const allowed = transferAllowed;
      return zoneTransfer(this.index, {
        msg,
        q,
        transport,
        allowed,
        edns,
        limit,
        signer: this.#signer,
      });
    }
    // Other meta QTYPEs (OPT, TSIG, TKEY, MAILA, MAILB, 128-254) are looked up like any type:
    // no record has them, so the answer is NODATA or a referral, as from NSD and Knot.
    const zone = this.index.findZoneFor(q.name, q.qtype);
    if (!zone) return [buildResponse(msg, q, RCODE_REFUSED, false, edns, NOT_AUTHORITATIVE, limit)];
    const res = resolve(this.index, zone, q.name, q.qtype, q.qclass === C_ANY);
    // RFC 4035 §3.1: signatures and proofs only for a query with the DO bit.
    if (this.#anySigned && q.edns?.do) signAnswer(this.index, this.#signer, res, Date.now() / 1000);
    return [buildResponse(msg, q, res.rcode, res.aa, edns, res, limit)];
  }
}

/** The one response of a UDP query, now or once it is ready. */
function first(out: Answers | null): Uint8Array | null | Promise<Uint8Array | null> {
  if (out instanceof Promise) return out.then((list) => list[0] ?? null);
  return out?.[0] ?? null;
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
