import { Badge } from "@/components/badge.tsx";
import { formatCount } from "@/components/format.ts";
import { Page } from "@/components/page.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { AttestSnapshot } from "@/lib/attest/rates.ts";
import type { AuditRecord } from "@/lib/audit/audit.ts";
import type { CheckStatus, DiagnosticsReport, SubsystemReport } from "@/lib/system/diagnostics.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Overview page", access: "viewer" },
});

/** One line of the diagnostics summary: a subsystem, its status and its most telling message. */
interface Subsystem {
  name: string;
  status: CheckStatus;
  message: string;
}

interface Data {
  status: DiagnosticsReport["status"];
  subsystems: Subsystem[];
  counts: [label: string, value: number, href?: string][];
  attest: AttestSnapshot;
  recent: AuditRecord[];
  uptime: number;
}

/** The message of the first check with the subsystem's own status (its worst), else the first. */
function summaryOf(r: SubsystemReport): Subsystem {
  const c = r.checks.find((c) => c.status === r.status) ?? r.checks[0];
  return { name: r.subsystem, status: r.status, message: c?.message ?? "No checks" };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Overview";
    const { system, audit, attestRates, diagnostics } = ctx.services;
    const o = await system.overview();
    // The same run as GET /diagnostics/all: every check is a read (see docs/dashboard.md).
    const report = await diagnostics.all();
    const t = o.tunnels as { interfaces: number; peers: number; enabled_peers: number };
    const d = o.dns as { zones: number; records: number };
    return page<Data>({
      status: report.status,
      subsystems: report.subsystems.map(summaryOf),
      counts: [
        ["Interfaces", t.interfaces, "/tunnels"],
        ["Peers", t.peers, "/peers"],
        ["Enabled peers", t.enabled_peers, "/peers?status=enabled"],
        ["Zones", d.zones, "/zones"],
        ["DNS records", d.records],
        ["Users", o.users as number],
        ["Active sessions", o.active_sessions as number],
        ["API tokens", o.api_tokens as number],
        ["Audit records", o.audit_records as number, "/audit"],
      ],
      attest: attestRates.snapshot(),
      recent: (await audit.list({ limit: 8, offset: 0 })).records,
      uptime: o.uptime_seconds as number,
    });
  },
});

function uptime(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} days`;
}

function Stat({ label, value, href }: { label: string; value: number | string; href?: string }) {
  const v = typeof value === "number" ? formatCount(value) : value;
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>{href ? <a href={href}>{v}</a> : v}</dd>
    </div>
  );
}

/** The diagnostics summary: the overall status and one card per subsystem, each linking to its checks. */
function Health({ status, subsystems }: Pick<Data, "status" | "subsystems">) {
  return (
    <section aria-labelledby="health">
      <div class="row spread">
        <h2 id="health">Health</h2>
        <p>
          Overall <Badge status={status} /> <a href="/diagnostics">All checks →</a>
        </p>
      </div>
      <ul class="health-grid">
        {subsystems.map((s) => (
          <li class={`health-card ${s.status}`} data-subsystem={s.name}>
            <div class="row spread">
              <a
                href={`/diagnostics?subsystem=${encodeURIComponent(s.name)}`}
                class="health-name"
              >
                {s.name}
              </a>
              <Badge status={s.status} />
            </div>
            <p>{s.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function Overview({ data }: PageProps<Data>) {
  const a = data.attest;
  return (
    <Page
      header={
        <div class="page-header">
          <h1>Overview</h1>
          <p class="muted">Up {uptime(data.uptime)}</p>
        </div>
      }
    >
      <Health status={data.status} subsystems={data.subsystems} />
      <section aria-labelledby="counts">
        <div class="row spread">
          <h2 id="counts">Counts</h2>
          {/* Every change that moves a count is audited: one event type covers them all. */}
          <LiveRegion region="overview-counts" on={[{ type: "AuditEvent" }]} />
        </div>
        <dl class="stats" id="overview-counts">
          {data.counts.map(([label, value, href]) => (
            <Stat label={label} value={value} href={href} />
          ))}
        </dl>
      </section>
      <section aria-labelledby="attest">
        <h2 id="attest">Attestation</h2>
        <dl class="stats">
          <Stat label="Sessions" value={a.sessions} />
          <Stat label="Expired" value={a.expired_sessions} />
          <Stat label="Highest chain" value={a.max_chain_length} />
          <Stat label="Accepted" value={a.accepted} />
          <Stat label="Rejected" value={a.rejected} />
        </dl>
        <p>
          <a href="/attestation">Rates and rejection reasons →</a>
        </p>
      </section>
      <section aria-labelledby="recent">
        <h2 id="recent">Recent activity</h2>
        {data.recent.length === 0
          ? <p class="empty">Nothing has happened yet.</p>
          : (
            <ul class="recent">
              {data.recent.map((r) => (
                <li>
                  <time datetime={r.time}>{r.time.replace("T", " ").slice(0, 19)}</time>{" "}
                  <strong>{r.actor}</strong> {r.message}
                </li>
              ))}
            </ul>
          )}
        <p>
          <a href="/audit">All audit records →</a>
        </p>
      </section>
    </Page>
  );
}
