/**
 * The quota's usage bar and the days left, shared by the server-rendered
 * limits views and the live peers table (islands/peer_table), so both show
 * the same native <meter> (assistive technology reads its value).
 */
import { formatBytes } from "@/components/format.ts";

/** "1.2 MiB of 256 KiB" with a meter; "no quota" without one. */
export function UsageMeter({ used, quota }: { used: number; quota: number | null }) {
  if (quota === null) return <span class="usage">no quota</span>;
  const text = `${formatBytes(used)} of ${formatBytes(quota)}`;
  return (
    <span class="usage">
      <meter
        min={0}
        max={quota}
        high={Math.floor(quota * 0.9)}
        value={Math.min(used, quota)}
        aria-label={`Traffic used: ${text}`}
      />{" "}
      {text}
    </span>
  );
}

/** "12 days left", "expired", or "no expiry". */
export function daysLeftLabel(days: number | null): string {
  if (days === null) return "no expiry";
  if (days === 0) return "expired";
  return `${days} ${days === 1 ? "day" : "days"} left`;
}
