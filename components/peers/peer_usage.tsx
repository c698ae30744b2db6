/**
 * A peer's limits at a glance (docs/peer_lifecycle.md): the quota's usage
 * bar (a native <meter>, so assistive technology reads its value) and the
 * days left until expiry.
 */
import { daysLeftLabel, UsageMeter } from "@/components/peers/usage_meter.tsx";
import { Table } from "@/components/table.tsx";
import type { LimitsView } from "@/lib/tunnel/lifecycle/limits_service.ts";
import type { PeerLimitsBrief } from "@/lib/tunnel/lifecycle/limits_view.ts";

/** "1.2 MiB of 256 KiB" with a meter; "no quota" without one. */
export function UsageBar({ limits }: { limits: PeerLimitsBrief }) {
  return <UsageMeter used={limits.used_bytes} quota={limits.quota_bytes} />;
}

/** "12 days left", "expired", or "no expiry". */
export function daysLeftText(limits: PeerLimitsBrief): string {
  return daysLeftLabel(limits.days_left);
}

const REASONS = { quota_reached: "quota used up", expired: "expired" } as const;

/** The peer page's section: usage, period, expiry, and the link to change them. */
export function LimitsSummary(
  { peerId, limits, canEdit }: { peerId: string; limits: LimitsView; canEdit: boolean },
) {
  return (
    <section aria-labelledby="limits">
      <h2 id="limits">Expiry and quota</h2>
      <dl class="facts">
        <dt>Traffic this period</dt>
        <dd>
          <UsageBar limits={limits} />
        </dd>
        <dt>Period</dt>
        <dd>
          {limits.period_start.slice(0, 10)} to {limits.period_end.slice(0, 10)} (
          {limits.quota_period === "monthly"
            ? "calendar month, UTC"
            : `every ${limits.quota_period_days} days`})
        </dd>
        <dt>Expiry</dt>
        <dd>
          {limits.expires_at ?? "none"} ({daysLeftText(limits)})
        </dd>
        {limits.disabled_reason && (
          <>
            <dt>Disabled by Palisade</dt>
            <dd>{REASONS[limits.disabled_reason]}</dd>
          </>
        )}
      </dl>
      {canEdit && (
        <p>
          <a href={`/peers/${peerId}/limits`}>Change expiry and quota</a>
        </p>
      )}
    </section>
  );
}

/** The peers list's table of the listed peers that have an expiry or a quota. */
export function LimitsTable(
  { peers }: { peers: { id: string; name: string; limits: PeerLimitsBrief }[] },
) {
  if (!peers.length) return null;
  return (
    <section aria-labelledby="peer-limits">
      <h2 id="peer-limits">Expiry and quota</h2>
      <Table
        label="Expiry and quota of the listed peers"
        columns={[{ label: "Peer" }, { label: "Traffic this period" }, { label: "Expiry" }]}
      >
        {peers.map((p) => (
          <tr key={p.id}>
            <td>
              <a href={`/peers/${p.id}`}>{p.name}</a>
            </td>
            <td>
              <UsageBar limits={p.limits} />
            </td>
            <td>{daysLeftText(p.limits)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
