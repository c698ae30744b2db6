import { z } from "zod";
import { Badge } from "@/components/badge.tsx";
import { SubsystemOverview, SubsystemSection } from "@/components/diagnostics/subsystem_report.tsx";
import { Page } from "@/components/page.tsx";
import { pageRefusal } from "@/components/refusal.ts";
import type { SubsystemReport } from "@/lib/system/diagnostics.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Diagnostics page: every subsystem's checks, or one subsystem's with ?subsystem=",
    access: "viewer",
    query: z.object({ subsystem: z.string().max(32).optional() }),
  },
});

interface Data {
  /** The worst status across what is shown; null for one subsystem. */
  status: string | null;
  generatedAt: string | null;
  reports: SubsystemReport[];
  /** The subsystem asked for, when one was. */
  only: string | null;
  error: string | null;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Diagnostics";
    const { diagnostics } = ctx.services;
    const name = ctx.query.subsystem;
    if (name !== undefined) {
      try {
        const report = await diagnostics.run(name);
        return page<Data>({
          status: null,
          generatedAt: null,
          reports: [report],
          only: name,
          error: null,
        });
      } catch (err) {
        // An unknown subsystem: its message names the known ones; every subsystem below it.
        const { error, status } = pageRefusal(err);
        const all = await diagnostics.all();
        return page<Data>(
          {
            status: all.status,
            generatedAt: all.generated_at,
            reports: all.subsystems,
            only: null,
            error,
          },
          { status },
        );
      }
    }
    const all = await diagnostics.all();
    return page<Data>({
      status: all.status,
      generatedAt: all.generated_at,
      reports: all.subsystems,
      only: null,
      error: null,
    });
  },
});

export default function Diagnostics({ data }: PageProps<Data>) {
  const refresh = data.only
    ? `/diagnostics?subsystem=${encodeURIComponent(data.only)}`
    : "/diagnostics";
  return (
    <Page
      title={data.only ? `Diagnostics: ${data.only}` : "Diagnostics"}
      back={data.only ? { href: "/diagnostics", label: "All subsystems" } : undefined}
      actions={<a href={refresh}>Refresh</a>}
      error={data.error}
    >
      {data.status && (
        <p data-overall>
          Overall <Badge status={data.status} />
          {data.generatedAt && <span class="muted">{` checked ${data.generatedAt}`}</span>}
        </p>
      )}
      {!data.only && <SubsystemOverview reports={data.reports} />}
      {data.reports.map((r) => <SubsystemSection key={r.subsystem} report={r} />)}
    </Page>
  );
}
