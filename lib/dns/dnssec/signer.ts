/**
 * Online signing with a signature cache. The responder caches whole answers;
 * this is the second level, so that an RRset signed once is not signed again
 * for every answer-cache miss (an ECDSA signature costs far more than the
 * rest of an answer).
 *
 * Validity (docs/dns.md, "Signing"): inception one hour back (validators
 * with a slow clock), expiration 14 days ahead; a cached signature is reused
 * until less than 7 days of it are left, so every signature served is valid
 * for at least 7 more days — longer than any TTL we serve, and time enough
 * for a secondary that transferred the zone to fetch it again.
 *
 * The cache key is a digest of exactly what the signature covers besides the
 * validity: the canonical records (owner, type, class, original TTL, RDATA)
 * and the signer's name, plus the key's DNSKEY RDATA. A change to any record,
 * its TTL, or a new key (even one with a colliding key tag) is a miss, never a
 * stale signature. Entries are bounded (least recently used go first).
 */
import { createHash } from "node:crypto";
import { canonicalNameWire } from "./canonical.ts";
import { prepareRRset, signPrepared } from "./rrsig.ts";
import type { RRsetToSign, SigningKey, Validity } from "./types.ts";

const HOUR = 3600;
const DAY = 86_400;

export interface SignerOptions {
  /** Most signatures kept; the least recently used are dropped beyond it. */
  maxEntries?: number;
  /** Seconds inception lies before signing time (clock skew of validators). */
  skew?: number;
  /** Seconds from signing time to expiration. */
  lifetime?: number;
  /** A cached signature with less than this many seconds left is made again. */
  refresh?: number;
}

export const SIGNER_DEFAULTS: Required<SignerOptions> = {
  maxEntries: 50_000,
  skew: HOUR,
  lifetime: 14 * DAY,
  refresh: 7 * DAY,
};

/** DNSKEY, CDS, CDNSKEY: the RRsets the KSK signs (docs/dns.md, "Keys and algorithms"). */
const KSK_TYPES = new Set([48, 59, 60]);

/**
 * The keys that sign an RRset of `type`: the KSKs (flags 257) for DNSKEY, CDS
 * and CDNSKEY, the ZSKs (256) for everything else. With keys of one kind only
 * (a combined signing key) those sign everything. `keys` are the zone's
 * active keys: a key published ahead of a rollover is not passed in.
 */
export function keysFor(type: number, keys: readonly SigningKey[]): SigningKey[] {
  const flags = KSK_TYPES.has(type) ? 257 : 256;
  const chosen = keys.filter((k) => k.flags === flags);
  return chosen.length ? chosen : keys.slice();
}

interface Entry {
  rrsig: Uint8Array;
  inception: number;
  expiration: number;
}

export interface SignOptions {
  /**
   * False for an RRset unlikely to be asked again (the white-lie NSEC that
   * covers one query name): it is signed but not cached, so a flood of random
   * names cannot push out the signatures worth keeping.
   */
  cache?: boolean;
}

export class ZoneSigner {
  readonly #opts: Required<SignerOptions>;
  readonly #cache = new Map<string, Entry>();
  readonly #keyIds = new WeakMap<SigningKey, string>();
  /** Signatures served from the cache, and made, since construction. */
  hits = 0;
  misses = 0;

  constructor(opts: SignerOptions = {}) {
    this.#opts = { ...SIGNER_DEFAULTS, ...opts };
  }

  /** The validity of a signature made at `now` (Unix seconds). */
  validity(now: number): Validity {
    const t = Math.floor(now);
    return { inception: t - this.#opts.skew, expiration: t + this.#opts.lifetime };
  }

  /**
   * One RRSIG RDATA per key for `rrset` of the zone `zoneApex`, at `now` (Unix
   * seconds). Every key given signs: pass the ones for the type (keysFor).
   * The arrays returned may be the cache's own: read them, never write them.
   */
  sign(
    rrset: RRsetToSign,
    zoneApex: string,
    keys: readonly SigningKey[],
    now: number,
    opts: SignOptions = {},
  ): Uint8Array[] {
    if (keys.length === 0) return [];
    const p = prepareRRset(rrset);
    const signer = canonicalNameWire(zoneApex);
    const out: Uint8Array[] = [];
    const cache = opts.cache !== false;
    // The signer's name first: a wire name ends itself, so no two inputs hash the same bytes.
    const digest = cache
      ? createHash("sha256").update(signer).update(p.records).digest("base64")
      : "";
    const validity = this.validity(now);
    for (const key of keys) {
      const id = cache ? this.#keyId(key) + digest : "";
      const hit = cache ? this.#fresh(id, now) : undefined;
      if (hit) {
        out.push(hit);
        continue;
      }
      const rrsig = signPrepared(p, key, validity, signer);
      this.misses++;
      if (cache) this.#store(id, { rrsig, ...validity });
      out.push(rrsig);
    }
    return out;
  }

  /** Signatures held. */
  get size(): number {
    return this.#cache.size;
  }

  /** Drops every cached signature (keys withdrawn, zone unsigned). */
  clear(): void {
    this.#cache.clear();
  }

  /** The cached signature under `id` if still usable at `now`, marked as recently used. */
  #fresh(id: string, now: number): Uint8Array | undefined {
    const e = this.#cache.get(id);
    if (!e) return undefined;
    // A clock set back behind the inception would serve a signature not yet valid.
    if (e.expiration - now < this.#opts.refresh || now < e.inception) {
      this.#cache.delete(id);
      return undefined;
    }
    this.#cache.delete(id);
    this.#cache.set(id, e);
    this.hits++;
    return e.rrsig;
  }

  #store(id: string, e: Entry): void {
    this.#cache.set(id, e);
    if (this.#cache.size > this.#opts.maxEntries) {
      this.#cache.delete(this.#cache.keys().next().value!);
    }
  }

  #keyId(key: SigningKey): string {
    let id = this.#keyIds.get(key);
    if (id === undefined) {
      id = createHash("sha256").update(key.dnskey).digest("base64").slice(0, 16);
      this.#keyIds.set(key, id);
    }
    return id;
  }
}
