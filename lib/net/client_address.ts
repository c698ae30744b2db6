/**
 * Who a request came from, in one place for every listener: the login
 * throttle, the audit trail and the attestation `/init` limit all key on the
 * address this module derives.
 *
 * `X-Forwarded-For` is written by whoever sends the request, so it is read
 * only when the TCP peer is one of the operator's trusted proxies
 * (PALISADE_TRUSTED_PROXIES). The header is then walked from the right: each
 * trusted proxy appends the address it received the request from, so the
 * right-most entry that is not itself a trusted proxy is the first hop no
 * trusted party vouches beyond. Everything left of it is the client's own
 * claim and is ignored.
 */
import { ipBytes, parseAcl } from "../dns/acl.ts";

/** True for an address of a trusted proxy. */
export type AddressMatcher = (address: string) => boolean;

/** The variable the trusted-proxy list comes from, named in configuration errors. */
export const TRUSTED_PROXIES_VARIABLE = "PALISADE_TRUSTED_PROXIES";

const matchers = new WeakMap<readonly string[], AddressMatcher>();
const NONE: AddressMatcher = () => false;

/**
 * The matcher of a trusted-proxy list (addresses and CIDR prefixes), built
 * once per list: the configuration travels to the attestation threads as
 * plain data, so each thread builds its own on first use.
 */
export function trustedProxyMatcher(entries: readonly string[]): AddressMatcher {
  if (entries.length === 0) return NONE;
  let m = matchers.get(entries);
  if (!m) {
    m = parseAcl([...entries], TRUSTED_PROXIES_VARIABLE);
    matchers.set(entries, m);
  }
  return m;
}

/**
 * The client's address: the TCP peer's, unless the peer is a trusted proxy;
 * then the right-most `X-Forwarded-For` entry that is not a trusted proxy (or
 * the left-most entry when every one is). An entry that is not an address
 * ends the walk at the nearest hop already verified, since nothing written by
 * an unverified party may choose the key. The result is in canonical form
 * (IPv4-mapped IPv6 as IPv4, IPv6 compressed per RFC 5952).
 */
export function clientAddress(
  peer: string,
  forwardedFor: string | null,
  trusted: AddressMatcher,
): string {
  let hop = canonicalAddress(peer) ?? peer;
  if (forwardedFor === null || trusted === NONE || !trusted(hop)) return hop;
  const entries = forwardedFor.split(",");
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = canonicalAddress(stripPort(entries[i].trim()));
    if (address === null) return hop;
    if (!trusted(address)) return address;
    hop = address;
  }
  return hop;
}

/** `[v6]:port` → `v6`, `[v6]` → `v6`, `a.b.c.d:port` → `a.b.c.d`; anything else as it is. */
function stripPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return v4 ? v4[1] : entry;
}

/** `text` as a canonical address, or null when it is not an IPv4 or IPv6 address. */
export function canonicalAddress(text: string): string | null {
  if (text.includes("%")) return null;
  const b = ipBytes(text);
  return b ? formatBytes(b) : null;
}

/**
 * The key that per-address limits count under: an IPv4 address as it is, an
 * IPv6 address by its /64 prefix, because one subscriber commonly holds a
 * whole /64 and could otherwise take a fresh address for every attempt.
 * Text that is not an address is its own key.
 */
export function addressKey(address: string): string {
  const b = ipBytes(address);
  if (!b) return address;
  const bytes = unmapped(b);
  if (bytes.length === 4) return formatBytes(bytes);
  const prefix = new Uint8Array(16);
  prefix.set(bytes.subarray(0, 8));
  return `${formatBytes(prefix)}/64`;
}

function unmapped(b: Uint8Array): Uint8Array {
  const mapped = b.length === 16 && b.subarray(0, 10).every((x) => x === 0) &&
    b[10] === 0xff && b[11] === 0xff;
  return mapped ? b.subarray(12) : b;
}

/** Dotted IPv4, or IPv6 in RFC 5952 form: lower case, no leading zeros, the longest zero run as `::`. */
function formatBytes(raw: Uint8Array): string {
  const b = unmapped(raw);
  if (b.length === 4) return b.join(".");
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((b[i] << 8) | b[i + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(":");
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}
