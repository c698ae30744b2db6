/**
 * How a `peer_limits` row is shown (docs/peer_lifecycle.md): the full view of
 * /peers/{id}/limits and the compact `limits` object of the peer listings.
 * Both read the period from the clock, so a period that ended without a read
 * since shows as the new one, empty.
 */
import { isoTime } from "../../clock.ts";
import type { LimitReason, PeerLimits } from "./limits_repo.ts";
import { daysLeft, periodEnd, periodStart } from "./period.ts";

export interface LimitsView {
  peer_id: string;
  expires_at: string | null;
  /** Whole days until expiry, rounded up; null without an expiry. */
  days_left: number | null;
  quota_bytes: number | null;
  quota_period: "monthly" | "days";
  quota_period_days: number | null;
  period_start: string;
  period_end: string;
  used_bytes: number;
  /** Why Palisade disabled the peer, while it stays disabled for it. */
  disabled_reason: LimitReason | null;
}

/** The `limits` object of a peer in GET /peers and GET /peers/{id}; null without limits. */
export type PeerLimitsBrief = Pick<
  LimitsView,
  "expires_at" | "days_left" | "quota_bytes" | "used_bytes" | "period_end" | "disabled_reason"
>;

/** A peer without a row: no limits, nothing used, the calendar month from now. */
export function freshLimits(peerId: string, now: number): PeerLimits {
  return {
    peerId,
    expiresAt: null,
    quotaBytes: null,
    periodDays: null,
    periodAnchor: now,
    periodStart: periodStart({ days: null, anchor: now }, now),
    usedBytes: 0,
    lastRx: null,
    lastTx: null,
    disabledReason: null,
    disabledAt: null,
    updatedAt: now,
  };
}

export function limitsView(peerId: string, l: PeerLimits | undefined, now: number): LimitsView {
  const r = l ?? freshLimits(peerId, now);
  const p = { days: r.periodDays, anchor: r.periodAnchor };
  const start = periodStart(p, now);
  return {
    peer_id: peerId,
    expires_at: r.expiresAt === null ? null : isoTime(r.expiresAt),
    days_left: r.expiresAt === null ? null : daysLeft(r.expiresAt, now),
    quota_bytes: r.quotaBytes,
    quota_period: r.periodDays === null ? "monthly" : "days",
    quota_period_days: r.periodDays,
    period_start: isoTime(start),
    period_end: isoTime(periodEnd(p, start)),
    used_bytes: start > r.periodStart ? 0 : r.usedBytes,
    disabled_reason: r.disabledReason,
  };
}

export function limitsBrief(l: PeerLimits, now: number): PeerLimitsBrief {
  const v = limitsView(l.peerId, l, now);
  return {
    expires_at: v.expires_at,
    days_left: v.days_left,
    quota_bytes: v.quota_bytes,
    used_bytes: v.used_bytes,
    period_end: v.period_end,
    disabled_reason: v.disabled_reason,
  };
}
