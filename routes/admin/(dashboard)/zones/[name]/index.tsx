import { z } from "zod";
import { noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { DnssecPanel } from "@/components/zones/dnssec_panel.tsx";
import {
  DnssecEnableBody,
  dnssecEnableFailure,
  dnssecEnableValues,
  enableDnssec,
} from "@/components/zones/dnssec_enable_form.tsx";
import { RecordsSection } from "@/components/zones/records_section.tsx";
import {
  addRecord,
  AddRecordForm,
  RecordBody,
  recordFailure,
} from "@/components/zones/record_form.tsx";
import { ZoneFacts } from "@/components/zones/zone_facts.tsx";
import {
  ImportBody,
  importZoneFile,
  ZoneImportForm,
} from "@/components/zones/zone_import_form.tsx";
import {
  updateZoneSettings,
  ZoneSettingsBody,
  zoneSettingsFailure,
  ZoneSettingsForm,
  zoneSettingsOf,
} from "@/components/zones/zone_settings_form.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { DnsRecord, DnssecStatus, ZoneDetails } from "@/lib/dns/dns_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Zone page: records, DNSSEC, settings, import and export",
    access: "viewer",
    query: z.object({
      type: z.string().max(16).optional(),
      done: z.string().max(32).optional(),
      added: z.coerce.number().int().min(0).optional(),
      skipped: z.coerce.number().int().min(0).optional(),
    }),
  },
  POST: {
    summary: "Change a zone from the page's forms",
    access: "operator",
    body: z.discriminatedUnion("_action", [
      z.object({ _action: z.literal("add"), ...RecordBody.shape }),
      z.object({ _action: z.literal("update"), ...ZoneSettingsBody.shape }),
      z.object({ _action: z.literal("import"), ...ImportBody.shape }),
      z.object({ _action: z.literal("dnssec"), ...DnssecEnableBody.shape }),
    ]),
  },
});

interface Data {
  zone: ZoneDetails;
  records: DnsRecord[];
  dnssec: DnssecStatus;
  type: string;
  canEdit: boolean;
  add: FormState;
  settings: FormState;
  importForm: FormState;
  dnssecForm: FormState;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  const { dns } = ctx.services;
  const zone = await dns.getZone(ctx.params.name);
  ctx.state.title = zone.name;
  const type = (ctx.url.searchParams.get("type") ?? "").toUpperCase();
  const records =
    (await dns.listRecords(zone.name, type && type !== "ALL" ? type : undefined)).records;
  const dnssec = await dns.dnssecStatus(zone.name);
  return {
    zone,
    records,
    dnssec,
    type,
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    add: emptyForm({ type: "A", domain: "" }),
    settings: emptyForm(zoneSettingsOf(zone)),
    importForm: emptyForm(),
    dnssecForm: emptyForm(dnssecEnableValues(dnssec.keys)),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const q = ctx.query;
    let notice = noticeFor(NOTICES.zone, q.done);
    if (q.done === "imported" && q.added !== undefined) {
      notice = `Zone file imported: ${q.added} added, ${q.skipped ?? 0} already present.`;
    }
    return page(await load(ctx, { notice }));
  },
  async POST(ctx) {
    const zone = (await ctx.services.dns.getZone(ctx.params.name)).name;
    const body = ctx.body;
    if (body._action === "dnssec") {
      const { _action, ...values } = body;
      try {
        return ctx.redirect(await enableDnssec(ctx, zone, values));
      } catch (err) {
        const { form, status } = dnssecEnableFailure(err, values);
        return page(await load(ctx, { dnssecForm: form }), { status });
      }
    }
    if (body._action === "add") {
      const { _action, ...values } = body;
      try {
        return ctx.redirect(await addRecord(ctx, zone, values));
      } catch (err) {
        const { form, status } = recordFailure(err, values);
        return page(await load(ctx, { add: form }), { status });
      }
    }
    if (body._action === "update") {
      const { _action, ...values } = body;
      try {
        return ctx.redirect(await updateZoneSettings(ctx, zone, values));
      } catch (err) {
        const { form, status } = zoneSettingsFailure(err, values);
        return page(await load(ctx, { settings: form }), { status });
      }
    }
    try {
      return ctx.redirect(await importZoneFile(ctx, zone, body));
    } catch (err) {
      const values = { text: body.text, replace: body.replace ?? "" };
      const { form, status } = formFailure(err, values, ["text"], { fallback: "text" });
      return page(await load(ctx, { importForm: form }), { status });
    }
  },
});

export default function Zone({ data }: PageProps<Data>) {
  const { zone } = data;
  const base = `/zones/${encodeURIComponent(zone.name)}`;
  const actions = (
    <>
      <a class="button-link" href={`${base}/history`}>History</a>
      <a class="button-link" href={`${base}/export`}>Export zone file</a>
      {data.canEdit && <a class="button-link danger" href={`${base}/delete`}>Delete zone…</a>}
    </>
  );
  return (
    <Page
      title={zone.name}
      back={{ href: "/zones", label: "Zones" }}
      actions={actions}
      notice={data.notice}
    >
      <ZoneFacts zone={zone} />
      {data.canEdit && <AddRecordForm zone={zone} form={data.add} />}
      <RecordsSection
        zone={zone.name}
        records={data.records}
        type={data.type}
        canEdit={data.canEdit}
      />
      <DnssecPanel
        zone={zone.name}
        status={data.dnssec}
        canEdit={data.canEdit}
        form={data.dnssecForm}
      />
      {data.canEdit && (
        <div class="columns">
          <ZoneSettingsForm form={data.settings} />
          <ZoneImportForm
            id="import"
            heading={<>Import into {zone.name}</>}
            form={data.importForm}
          />
        </div>
      )}
    </Page>
  );
}
