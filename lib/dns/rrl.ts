/**
 * Response rate limiting for DNS over UDP, after NSD's and Knot's RRL: a UDP
 * source address can be spoofed, so a flood of queries "from" a victim
 * would make this server a reflector. Answers to one source prefix (/24 for
 * IPv4, /56 for IPv6 by default) are limited to `rate` per second with a
 * token bucket; of the answers over the limit every `slip`-th goes out
 * truncated and empty (a real client then retries over TCP, which cannot be
 * spoofed) and the others are dropped. TCP is never limited.
 */
import type { DnsRrlSettings } from "../config/types.ts";
import { ipBytes } from "./acl.ts";

export interface RrlOptions {
  /** Answers per second per source prefix (also the burst). */
  rate: number;
  /** Every slip-th limited answer is sent truncated; 0 drops them all. */
  slip: number;
  ipv4Prefix: number;
  ipv6Prefix: number;
  /** Prefixes tracked at most; past this the table starts over. */
  maxPrefixes?: number;
}

export type RrlVerdict = "answer" | "slip" | "drop";

interface Bucket {
  tokens: number;
  at: number;
  limited: number;
}

const DEFAULT_MAX_PREFIXES = 100_000;

export class ResponseRateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #max: number;

  constructor(private readonly options: RrlOptions) {
    this.#max = options.maxPrefixes ?? DEFAULT_MAX_PREFIXES;
  }

  /** What to do with an answer to `ip` at `now` (ms). */
  check(ip: string, now: number): RrlVerdict {
    const key = prefixKey(ip, this.options);
    let b = this.#buckets.get(key);
    if (!b) {
      // A table this full means a spread-out flood: forgetting every bucket
      // lets some answers through, where growing without bound would not.
      if (this.#buckets.size >= this.#max) this.#buckets.clear();
      b = { tokens: this.options.rate, at: now, limited: 0 };
      this.#buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.options.rate, b.tokens + (now - b.at) * this.options.rate / 1000);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return "answer";
    }
    b.limited++;
    return this.options.slip > 0 && b.limited % this.options.slip === 0 ? "slip" : "drop";
  }
}

/** The source prefix an address belongs to, as a map key. */
export function prefixKey(ip: string, o: Pick<RrlOptions, "ipv4Prefix" | "ipv6Prefix">): string {
  const bytes = ipBytes(ip);
  if (!bytes) return ip;
  const v4 = bytes.length === 4;
  let bits = v4 ? o.ipv4Prefix : o.ipv6Prefix;
  const out: number[] = [];
  for (let i = 0; i < bytes.length && bits > 0; i++, bits -= 8) {
    out.push(bits >= 8 ? bytes[i] : bytes[i] & ((0xff << (8 - bits)) & 0xff));
  }
  return `${v4 ? 4 : 6}:${out.join(".")}`;
}

/**
 * The truncated, empty answer sent instead of a limited one: the query's
 * header and question with QR and TC set, no records.
 */
export function truncatedAnswer(query: Uint8Array, questionEnd: number, aa: boolean): Uint8Array {
  const out = query.slice(0, questionEnd);
  out[2] = (out[2] & 0x79) | 0x80 | 0x02 | (aa ? 0x04 : 0); // QR, opcode kept, AA, TC; RD kept
  out[3] = 0; // RA off, RCODE NOERROR
  out.fill(0, 6, 12); // no answer, authority or additional records
  return out;
}

/**
 * The limiter the settings ask for: `auto` limits unless the listener is
 * bound to a loopback address, where no spoofed source can reach it.
 */
export function rrlFor(s: DnsRrlSettings, listenHost: string): ResponseRateLimiter | null {
  const loopback = /^(127\.|::1$|localhost$)/.test(listenHost) || listenHost === "[::1]";
  if (s.mode === "off" || (s.mode === "auto" && loopback)) return null;
  return new ResponseRateLimiter(s);
}
