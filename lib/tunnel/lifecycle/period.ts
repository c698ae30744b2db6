/**
 * The arithmetic of traffic quotas (docs/peer_lifecycle.md): how many bytes
 * a read of the host's transfer counters adds, and where a quota period
 * starts and ends. Pure functions over Unix milliseconds, so the tests give
 * them values written by hand.
 */

const DAY_MS = 86_400_000;

/** A quota period: the calendar month in UTC (`days` null), or every `days` days from `anchor`. */
export interface Period {
  days: number | null;
  /** Unix ms; the start of one N-day period (unused for months). */
  anchor: number;
}

/**
 * Bytes a counter moved since `last` was seen. The first read (`last` null)
 * only sets the baseline. A counter lower than last seen was reset (the
 * device or wireguard-go restarted, or the peer was taken off the host and
 * put back): it counted from zero, so all of it is new.
 */
export function counterDelta(last: number | null, current: number): number {
  if (last === null) return 0;
  return current >= last ? current - last : current;
}

/** The start of the period holding `at`. */
export function periodStart(p: Period, at: number): number {
  if (p.days === null) {
    const d = new Date(at);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const len = p.days * DAY_MS;
  return p.anchor + Math.floor((at - p.anchor) / len) * len;
}

/** The start of the period after the one starting at `start`. */
export function periodEnd(p: Period, start: number): number {
  if (p.days === null) {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + p.days * DAY_MS;
}

/** What accounting keeps per peer between reads. */
export interface Usage {
  periodStart: number;
  usedBytes: number;
  lastRx: number | null;
  lastTx: number | null;
}

/**
 * The usage after a read of counters `rx`/`tx` at `now`: a new period
 * (the boundary passed) starts from zero, then the bytes moved since the
 * last read are added. `rolled` tells that the period changed.
 */
export function account(
  p: Period,
  u: Usage,
  rx: number,
  tx: number,
  now: number,
): Usage & { rolled: boolean } {
  const start = periodStart(p, now);
  const rolled = start > u.periodStart;
  const used = (rolled ? 0 : u.usedBytes) + counterDelta(u.lastRx, rx) +
    counterDelta(u.lastTx, tx);
  return {
    periodStart: rolled ? start : u.periodStart,
    usedBytes: used,
    lastRx: rx,
    lastTx: tx,
    rolled,
  };
}

/** Whole days from `now` until `until`, rounded up (0 once passed). */
export function daysLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / DAY_MS));
}
