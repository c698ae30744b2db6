import { ConfirmPage } from "@/components/confirm_page.tsx";
import type { DnsRecord } from "@/lib/dns/dns_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { formFailure } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm deleting a record", access: "operator" },
  POST: { summary: "Delete a record", access: "operator" },
});

interface Data {
  zone: string;
  record: DnsRecord;
  error?: string;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Delete record";
    const { dns } = ctx.services;
    const zone = dns.getZone(ctx.params.name).name;
    return page<Data>({ zone, record: dns.getRecord(zone, ctx.params.id) });
  },
  POST(ctx) {
    ctx.state.title = "Delete record";
    const { dns } = ctx.services;
    const zone = dns.getZone(ctx.params.name).name;
    const record = dns.getRecord(zone, ctx.params.id);
    try {
      dns.deleteRecord(ctx.auth.user.username, zone, record.id);
      return ctx.redirect(`/zones/${encodeURIComponent(zone)}?done=record_deleted`);
    } catch (err) {
      const { form, status } = formFailure(err, {}, []);
      return page<Data>({ zone, record, error: form.errors[""] }, { status });
    }
  },
});

export default function DeleteRecord({ data }: PageProps<Data>) {
  const { record, zone } = data;
  return (
    <ConfirmPage
      title="Delete record"
      question={
        <>
          Delete the {record.type} record <strong>{record.domain}</strong> →{" "}
          <code>{record.value}</code>?
        </>
      }
      consequence="Resolvers may keep answering with it until its TTL runs out."
      confirmLabel="Delete record"
      cancelHref={`/zones/${encodeURIComponent(zone)}`}
      error={data.error}
    />
  );
}
