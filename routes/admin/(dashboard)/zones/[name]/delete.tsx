import { ConfirmPage } from "@/components/confirm_page.tsx";
import type { ZoneDetails } from "@/lib/dns/dns_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { formFailure } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm deleting a zone", access: "operator" },
  POST: { summary: "Delete a zone and its records", access: "operator" },
});

interface Data {
  zone: ZoneDetails;
  error?: string;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Delete zone";
    return page<Data>({ zone: ctx.services.dns.getZone(ctx.params.name) });
  },
  POST(ctx) {
    ctx.state.title = "Delete zone";
    const { dns } = ctx.services;
    const zone = dns.getZone(ctx.params.name);
    try {
      dns.deleteZone(ctx.auth.user.username, zone.name);
      return ctx.redirect("/zones?done=deleted");
    } catch (err) {
      const { form, status } = formFailure(err, {}, []);
      return page<Data>({ zone, error: form.errors[""] }, { status });
    }
  },
});

export default function DeleteZone({ data }: PageProps<Data>) {
  const { zone } = data;
  return (
    <ConfirmPage
      title="Delete zone"
      question={
        <>
          Delete zone <strong>{zone.name}</strong> and its {zone.records_count} records?
        </>
      }
      consequence="The server stops answering for it at once. Export the zone file first to keep a copy; this cannot be undone."
      confirmLabel={`Delete ${zone.name}`}
      cancelHref={`/zones/${encodeURIComponent(zone.name)}`}
      error={data.error}
    />
  );
}
