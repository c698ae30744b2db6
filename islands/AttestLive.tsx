import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { formatCount, formatRate, formatTime } from "@/components/format.ts";
import type { EventMap } from "@/lib/events/bus.ts";
import { subscribe } from "./_runtime/event_stream.ts";
import { LiveStatus } from "./_runtime/live_status.tsx";

/** The `AttestStats` event payload (lib/attest/rates.ts); a type only, so no server code is bundled. */
export type AttestFigures = EventMap["AttestStats"];

const REASONS: Record<string, string> = {
  rate_limit: "More than 5 heartbeats in 10 s",
  unknown_session: "Unknown session",
  expired: "Session expired",
  signature: "Bad signature",
  hash_chain: "Hash chain broken",
  mutation_step: "Wrong mutation step",
  mutation: "Mutation order not applicable",
  gene_commitment: "Gene commitment mismatch",
  timestamp_drift: "Clock more than 30 s off",
  mouse_events: "Fewer than 3 mouse samples",
  mouse_distance: "Mouse path shorter than 10 px",
  mouse_speed: "Mouse faster than 2 px/ms",
  mouse_pauses: "Mouse path without a pause",
  aspect_ratio: "Aspect ratio out of range",
  device_pixel_ratio: "Device pixel ratio out of range",
  hardware_concurrency: "CPU count out of range",
  conflict: "Lost to a concurrent heartbeat, or storage failed",
};

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>
        {value}
        {hint && <span class="hint">{hint}</span>}
      </dd>
    </div>
  );
}

/**
 * Attestation figures, updated from `AttestStats` events, which the server
 * sends only when a figure changed: no polling, and nothing while idle.
 */
export default function AttestLive({ initial }: { initial: AttestFigures }) {
  const s = useSignal(initial);
  useEffect(
    () => subscribe("AttestStats", (e) => (s.value = e.payload as unknown as AttestFigures)),
    [],
  );
  const v = s.value;
  const judged = v.accepted + v.rejected;
  const share = judged === 0 ? "—" : `${((v.rejected / judged) * 100).toFixed(1)} %`;
  const reasons = Object.entries(v.rejected_by_reason).sort((a, b) => b[1] - a[1]);
  const window = v.window_seconds > 0 ? `over the last ${v.window_seconds} s` : "no window yet";
  return (
    <>
      <div class="row spread">
        <h2 id="attest-now">Sessions and heartbeats</h2>
        <LiveStatus />
      </div>
      <dl class="stats" aria-labelledby="attest-now">
        <Stat label="Sessions" value={formatCount(v.sessions)} />
        <Stat label="Expired, awaiting purge" value={formatCount(v.expired_sessions)} />
        <Stat label="Highest chain" value={formatCount(v.max_chain_length)} />
        <Stat label="Accepted" value={formatCount(v.accepted)} hint="since start" />
        <Stat label="Rejected" value={formatCount(v.rejected)} hint="since start" />
        <Stat label="Rejected share" value={share} />
        <Stat label="Accepted rate" value={formatRate(v.accepted_per_second)} hint={window} />
        <Stat label="Rejected rate" value={formatRate(v.rejected_per_second)} hint={window} />
      </dl>
      <h2 id="reasons">Rejections by reason</h2>
      {reasons.length === 0
        ? <p class="empty">No heartbeat has been rejected since the server started.</p>
        : (
          <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="reasons">
            <table aria-labelledby="reasons">
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Code</th>
                  <th scope="col" class="num">Rejected</th>
                  <th scope="col" class="num">Share</th>
                </tr>
              </thead>
              <tbody>
                {reasons.map(([reason, n]) => (
                  <tr key={reason}>
                    <th scope="row">{REASONS[reason] ?? reason}</th>
                    <td>
                      <code>{reason}</code>
                    </td>
                    <td class="num">{formatCount(n)}</td>
                    <td class="num">{((n / v.rejected) * 100).toFixed(1)} %</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <p class="help">Figures as of {formatTime(v.time)}.</p>
    </>
  );
}
