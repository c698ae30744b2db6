import type { AuditRecord } from "@/lib/audit/audit.ts";
import { defineHandlers, defineMeta, page, type PageProps } from "@/server/define.ts";

export const meta = defineMeta({
  GET: { summary: "Overview page", access: "viewer" },
});

interface Data {
  overview: Record<string, unknown>;
  recent: AuditRecord[];
}

export const handler = defineHandlers(meta, {
  GET(ctx) {
    ctx.state.title = "Overview";
    const { system, audit } = ctx.state.services;
    return page<Data>({
      overview: system.overview(),
      recent: audit.list({ limit: 8, offset: 0 }).records,
    });
  },
});

function Stat({ label, value }: { label: string; value: unknown }) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>{String(value)}</dd>
    </div>
  );
}

export default function Overview({ data }: PageProps<Data>) {
  const o = data.overview;
  const health = o.health as { status: string; database: string };
  const listeners = o.listeners as Record<string, string>;
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="health">
        <h2 id="health">Health</h2>
        <ul class="health">
          <li class={`pill ${health.database === "ok" ? "ok" : "bad"}`}>
            Store: {health.database}
          </li>
          {Object.entries(listeners).map(([name, addr]) => (
            <li key={name} class="pill ok">{name} on {addr}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="counts">
        <h2 id="counts">Counts</h2>
        <dl class="stats">
          <Stat label="Users" value={o.users} />
          <Stat label="Active sessions" value={o.active_sessions} />
          <Stat label="API tokens" value={o.api_tokens} />
          <Stat label="Audit records" value={o.audit_records} />
          <Stat label="Uptime (s)" value={o.uptime_seconds} />
        </dl>
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
    </>
  );
}
