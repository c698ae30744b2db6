import { z } from "zod";
import AuditTail from "@/islands/AuditTail.tsx";
import { AuditQuery } from "@/lib/audit/schema.ts";
import type { AuditPage } from "@/lib/audit/audit.ts";
import { Page } from "@/components/page.tsx";
import { Pagination } from "@/components/pagination.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

const PAGE_SIZE = 50;

export const meta = define.meta({
  GET: {
    summary: "Audit page",
    access: "viewer",
    query: AuditQuery.extend({ limit: z.coerce.number().int().min(1).max(200).default(PAGE_SIZE) }),
  },
});

interface Data {
  page: AuditPage;
  filter: { event_type?: string; resource_type?: string; actor?: string };
  eventTypes: string[];
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Audit";
    const { audit } = ctx.services;
    const filter = {
      event_type: ctx.query.event_type,
      resource_type: ctx.query.resource_type,
      actor: ctx.query.actor,
    };
    return page<Data>({
      page: await audit.list(ctx.query),
      filter,
      eventTypes: await audit.eventTypes(),
    });
  },
});

export default function Audit({ data, url }: PageProps<Data>) {
  const { page: p, filter } = data;
  return (
    <Page header={<h1>Audit</h1>}>
      <form method="get" class="filters" aria-label="Filter audit records">
        <label>
          Event
          <select name="event_type">
            <option value="">All events</option>
            {data.eventTypes.map((t) => (
              <option value={t} selected={t === filter.event_type}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <input name="actor" value={filter.actor ?? ""} />
        </label>
        <label>
          Resource type
          <input name="resource_type" value={filter.resource_type ?? ""} />
        </label>
        <button type="submit">Filter</button>
        <a href="/audit" class="button-link">Clear</a>
      </form>
      <AuditTail records={p.records} filter={filter} live={p.offset === 0} max={p.limit} />
      <Pagination url={url} total={p.total} limit={p.limit} offset={p.offset} />
    </Page>
  );
}
