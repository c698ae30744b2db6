/**
 * Request and response shapes of /peers/{id}/limits (docs/peer_lifecycle.md),
 * in zod; the response is kept equal to `LimitsView` at compile time.
 */
import { z } from "zod";
import type { LimitsView } from "./limits_service.ts";

/** 2^53 − 1: byte counts stay exact in JSON numbers. */
const MAX_BYTES = Number.MAX_SAFE_INTEGER;

/** PUT /peers/{id}/limits */
export const limitsInputSchema = z.strictObject({
  expires_at: z.iso.datetime({ offset: true }).nullable().optional().describe(
    "When the peer is disabled (ISO 8601); null: never. Absent: unchanged",
  ),
  quota_bytes: z.number().int().min(1).max(MAX_BYTES).nullable().optional().describe(
    "Bytes (received plus sent) allowed per period; null: no quota. Absent: unchanged",
  ),
  quota_period_days: z.number().int().min(1).max(3660).nullable().optional().describe(
    "Null: the calendar month in UTC; N: every N days from when this was set. Absent: unchanged",
  ),
});

const iso = z.string().describe("ISO 8601 time");

/** A peer's limits and its usage of the current period (LimitsView). */
export const LimitsSchema = z.object({
  peer_id: z.string(),
  expires_at: iso.nullable(),
  days_left: z.number().int().nullable().describe("Whole days until expiry, rounded up"),
  quota_bytes: z.number().int().nullable(),
  quota_period: z.enum(["monthly", "days"]),
  quota_period_days: z.number().int().nullable(),
  period_start: iso,
  period_end: iso,
  used_bytes: z.number().int(),
  disabled_reason: z.enum(["quota_reached", "expired"]).nullable().describe(
    "Why Palisade disabled the peer, while it stays disabled for it",
  ),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof LimitsSchema>, LimitsView>>();
