/** A site's figures on its page: since start, over time, and its latest sessions' signals. */
import { formatCount, formatTime } from "@/components/format.ts";
import { Table } from "@/components/table.tsx";
import {
  HOUR_BUCKETS,
  MINUTE_BUCKETS,
  type SiteBucket,
  type SiteHistoryView,
  type SiteSeriesName,
} from "@/lib/attest/sites/site_history.ts";
import type { SiteFiguresAll } from "@/lib/attest/sites/site_service.ts";
import type { RecentSession, SignalFlag } from "@/lib/attest/signals/signals.ts";
import { Sparkline } from "./sparkline.tsx";

function Stat({ name, label, value, hint }: {
  name: string;
  label: string;
  value: number;
  hint?: string;
}) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd data-figure={name} title={hint}>{formatCount(value)}</dd>
    </div>
  );
}

/** "reason n, reason n" of the non-zero entries, most first; "none" without any. */
export function breakdown(entries: Iterable<[string, number]>): string {
  const hit = [...entries].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return hit.length === 0 ? "none" : hit.map(([r, n]) => `${r} ${formatCount(n)}`).join(", ");
}

export function SiteTotals({ f }: { f: SiteFiguresAll }) {
  const t = f.tokens;
  return (
    <section class="stack" aria-labelledby="site-totals">
      <h2 id="site-totals">Since the server started</h2>
      <dl class="stats">
        <Stat name="sessions" label="Sessions" value={f.sessionsCreated} />
        <Stat name="init_refused" label="Refused /init" value={f.initRefused} />
        <Stat name="accepted" label="Heartbeats accepted" value={f.accepted} />
        <Stat name="rejected" label="Heartbeats rejected" value={f.rejectedTotal} />
        <Stat name="issued" label="Tokens issued" value={t.issued} />
        <Stat name="refused" label="Token requests refused" value={t.refused} />
        <Stat name="verified" label="Tokens verified" value={t.verified} />
        <Stat name="failed" label="Siteverify failed" value={t.failedTotal} />
        <Stat name="reused" label="Tokens reused" value={t.reused} />
      </dl>
      <Table columns={[{ label: "Breakdown" }, { label: "By reason or error code" }]}>
        <tr>
          <th scope="row">Heartbeats rejected</th>
          <td data-breakdown="rejected">{breakdown(f.rejected)}</td>
        </tr>
        <tr>
          <th scope="row">Siteverify failed</th>
          <td data-breakdown="failed">{breakdown(Object.entries(t.failed))}</td>
        </tr>
      </Table>
    </section>
  );
}

const SERIES: [SiteSeriesName, string][] = [
  ["sessions", "Sessions"],
  ["accepted", "Heartbeats accepted"],
  ["rejected", "Heartbeats rejected"],
  ["issued", "Tokens issued"],
  ["verified", "Tokens verified"],
  ["failed", "Siteverify failed"],
  ["reused", "Tokens reused"],
];

function sum(buckets: SiteBucket[], k: SiteSeriesName): number {
  return buckets.reduce((n, b) => n + b.figures[k], 0);
}

export function SiteOverTime({ h }: { h: SiteHistoryView }) {
  const starts = (b: SiteBucket[]) => b.map((x) => x.at);
  return (
    <section class="stack" aria-labelledby="site-over-time">
      <h2 id="site-over-time">Over time</h2>
      <Table
        label="Figures per minute over the last hour and per hour over the last day"
        columns={[
          { label: "Figure" },
          { label: "Last hour, per minute" },
          { label: "Last hour", num: true },
          { label: "Last 24 h, per hour" },
          { label: "Last 24 h", num: true },
        ]}
      >
        {SERIES.map(([k, label]) => (
          <tr key={k} data-series={k}>
            <th scope="row">{label}</th>
            <td>
              <Sparkline
                values={h.minutes.map((b) => b.figures[k])}
                starts={starts(h.minutes)}
                slots={MINUTE_BUCKETS}
                label={`${label} per minute, last hour`}
              />
            </td>
            <td class="num">{formatCount(sum(h.minutes, k))}</td>
            <td>
              <Sparkline
                values={h.hours.map((b) => b.figures[k])}
                starts={starts(h.hours)}
                slots={HOUR_BUCKETS}
                label={`${label} per hour, last 24 hours`}
              />
            </td>
            <td class="num">{formatCount(sum(h.hours, k))}</td>
          </tr>
        ))}
      </Table>
      <p class="help">
        Kept in memory since the server started; the last bar is the period still running.
      </p>
    </section>
  );
}

const FLAGS: SignalFlag[] = [
  "path_regular",
  "replay",
  "timing_regular",
  "fingerprint_inconsistent",
];

export function SiteSessions(
  { sessions, shown }: { sessions: RecentSession[]; shown: number },
) {
  const counts = FLAGS.map((f) => [f, sessions.filter((s) => s.flags.includes(f)).length] as const);
  return (
    <section class="stack" aria-labelledby="site-sessions">
      <h2 id="site-sessions">Recent sessions and their signals</h2>
      <p class="help">
        Sessions with at least one heartbeat accepted from the site's origins, newest first. Signals
        are hints for the site; they never reject a heartbeat.
      </p>
      <dl class="stats" aria-label={`Flagged among the last ${sessions.length} sessions`}>
        {counts.map(([f, n]) => (
          <div class="stat" key={f}>
            <dt>
              <code>{f}</code>
            </dt>
            <dd data-flag-count={f}>{formatCount(n)}</dd>
          </div>
        ))}
      </dl>
      {sessions.length === 0
        ? <p class="empty">No session of this site has been measured yet.</p>
        : (
          <Table
            label="Recent sessions"
            columns={[
              { label: "Session" },
              { label: "First heartbeat" },
              { label: "Heartbeats", num: true },
              { label: "Flags" },
            ]}
          >
            {sessions.slice(0, shown).map((s) => (
              <tr key={s.session_id} data-session-id={s.session_id}>
                <th scope="row">
                  <code title={s.session_id}>{s.session_id.slice(0, 12)}…</code>
                </th>
                <td>{formatTime(s.first_at)}</td>
                <td class="num">{formatCount(s.heartbeats)}</td>
                <td>
                  {s.flags.length === 0 ? "none" : <span class="flag">{s.flags.join(", ")}</span>}
                </td>
              </tr>
            ))}
          </Table>
        )}
    </section>
  );
}
