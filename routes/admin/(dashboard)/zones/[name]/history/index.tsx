import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { HistoryList } from "@/components/zones/history_list.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import { HISTORY_PAGE } from "@/lib/dns/history/history.ts";
import type { HistoryEntry } from "@/lib/dns/history/history_repo.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "A zone's history: each change of its records with its diff, newest first",
    access: "viewer",
    query: z.object({
      done: doneQuery(NOTICES.history),
      before: z.coerce.number().int().min(1).optional(),
    }),
  },
});

interface Data {
  zone: string;
  changes: HistoryEntry[];
  canEdit: boolean;
  notice: string | null;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { zone, changes } = await ctx.services.dns.listHistory(ctx.params.name, {
      before: ctx.query.before,
    });
    ctx.state.title = `History of ${zone}`;
    return page({
      zone,
      changes,
      canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
      notice: noticeFor(NOTICES.history, ctx.query.done),
    });
  },
});

export default function History({ data }: PageProps<Data>) {
  const { zone, changes } = data;
  const base = `/zones/${encodeURIComponent(zone)}`;
  const last = changes[changes.length - 1];
  return (
    <Page
      title={`History of ${zone}`}
      back={{ href: base, label: zone }}
      notice={data.notice}
    >
      <HistoryList zone={zone} changes={changes} canEdit={data.canEdit} />
      {last && changes.length >= HISTORY_PAGE && (
        <a class="button-link" href={`${base}/history?before=${last.id}`}>Older changes</a>
      )}
    </Page>
  );
}
