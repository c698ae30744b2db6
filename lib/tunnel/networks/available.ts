/**
 * The unallocated addresses of a block, a page at a time. A /8 has sixteen
 * million host addresses, so the list is never built: the walk starts above
 * `after` and skips what `allocated` holds (numbers, one set lookup per
 * candidate) until it has `limit` addresses. Whether more follow costs at
 * most `allocated.size + 1` further steps, since every skipped address is in
 * the set.
 */
import { type Cidr, range } from "../ipv4.ts";

export interface AvailablePage {
  /** Free host addresses, ascending, at most `limit`. */
  addresses: number[];
  /** True when a free address follows the last one returned. */
  more: boolean;
}

/** First and last address a host of `c` may have (/31 and /32 have no network or broadcast address). */
export function hostRange(c: Cidr): { lo: number; hi: number } {
  const { network, broadcast } = range(c);
  return c.prefix >= 31 ? { lo: network, hi: broadcast } : { lo: network + 1, hi: broadcast - 1 };
}

/**
 * Up to `limit` host addresses of `c` above `after` (from the start when
 * null) that are not in `allocated`, in ascending order.
 */
export function availableAddresses(
  c: Cidr,
  allocated: ReadonlySet<number>,
  after: number | null,
  limit: number,
): AvailablePage {
  const { lo, hi } = hostRange(c);
  const addresses: number[] = [];
  let ip = after === null ? lo : Math.max(lo, after + 1);
  for (; ip <= hi && addresses.length < limit; ip++) {
    if (!allocated.has(ip)) addresses.push(ip);
  }
  while (ip <= hi && allocated.has(ip)) ip++;
  return { addresses, more: ip <= hi };
}
