import type { ComponentChildren } from "preact";
import { z } from "zod";
import { Field, FormError, Select } from "@/components/form_fields.tsx";
import { formatTime } from "@/components/format.ts";
import { Notice } from "@/components/notice.tsx";
import { ZoneImportFields } from "@/components/zone_import_fields.tsx";
import { PageHeader } from "@/components/page_header.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { DnsRecord, ZoneDetails } from "@/lib/dns/dns_service.ts";
import { RECORD_TYPES } from "@/lib/dns/rdata.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import {
  emptyForm,
  formFailure,
  type FormState,
  formText,
  optionalInt,
} from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const Text = formText(4000);
const TYPES = RECORD_TYPES.filter((t) => t !== "SOA");
const TIMERS = ["default_ttl", "refresh", "retry", "expire", "minimum"] as const;
const DONE: Record<string, string> = {
  created: "Zone created.",
  updated: "Zone saved.",
  imported: "Zone file imported.",
  record_created: "Record added.",
  record_updated: "Record saved.",
  record_deleted: "Record deleted.",
};

export const meta = define.meta({
  GET: {
    summary: "Zone page: records, settings, import and export",
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
      z.object({ _action: z.literal("add"), domain: Text, type: Text, value: Text, ttl: Text }),
      z.object({
        _action: z.literal("update"),
        admin_email: Text,
        nameservers: Text,
        default_ttl: Text,
        refresh: Text,
        retry: Text,
        expire: Text,
        minimum: Text,
      }),
      z.object({
        _action: z.literal("import"),
        text: z.string().default(""),
        file: z.string().default(""),
        replace: z.literal("true").optional(),
      }),
    ]),
  },
});

interface Data {
  zone: ZoneDetails;
  records: DnsRecord[];
  type: string;
  canEdit: boolean;
  add: FormState;
  settings: FormState;
  importForm: FormState;
  notice: string | null;
}

/** "www" → "www.example.org", "@" and full names unchanged: names in the form are relative to the zone. */
function ownerName(input: string, zone: string): string {
  const v = input.trim();
  if (v === "" || v === "@" || v.endsWith(".")) return v || "@";
  const lower = v.toLowerCase();
  return lower === zone || lower.endsWith(`.${zone}`) ? v : `${v}.${zone}`;
}

function settingsOf(z: ZoneDetails): Record<string, string> {
  return {
    admin_email: z.admin_email,
    nameservers: z.nameservers.join(", "),
    ...Object.fromEntries(TIMERS.map((k) => [k, String(z[k])])),
  };
}

function load(ctx: SignedInContext, over: Partial<Data> = {}): Data {
  const { dns } = ctx.services;
  const zone = dns.getZone(ctx.params.name);
  ctx.state.title = zone.name;
  const type = (ctx.url.searchParams.get("type") ?? "").toUpperCase();
  const records = dns.listRecords(zone.name, type && type !== "ALL" ? type : undefined).records;
  return {
    zone,
    records,
    type,
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    add: emptyForm({ type: "A", domain: "" }),
    settings: emptyForm(settingsOf(zone)),
    importForm: emptyForm(),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    const q = ctx.query;
    let notice = q.done ? DONE[q.done] ?? null : null;
    if (q.done === "imported" && q.added !== undefined) {
      notice = `Zone file imported: ${q.added} added, ${q.skipped ?? 0} already present.`;
    }
    return page(load(ctx, { notice }));
  },
  POST(ctx) {
    const { dns } = ctx.services;
    const actor = ctx.auth.user.username;
    const zone = dns.getZone(ctx.params.name);
    const here = `/zones/${encodeURIComponent(zone.name)}`;
    const body = ctx.body;
    if (body._action === "add") {
      const { _action, ...values } = body;
      try {
        dns.createRecord(actor, zone.name, {
          domain: ownerName(values.domain, zone.name),
          type: values.type,
          value: values.value,
          ttl: optionalInt(values, "ttl"),
        });
        return ctx.redirect(`${here}?done=record_created`);
      } catch (err) {
        const { form, status } = formFailure(err, values, ["domain", "type", "value", "ttl"]);
        // "Name … is outside zone …" names no field but is about the owner name.
        if (form.errors[""]?.startsWith("Name ")) form.errors = { domain: form.errors[""] };
        return page(load(ctx, { add: form }), { status });
      }
    }
    if (body._action === "update") {
      const { _action, ...values } = body;
      try {
        const timers: Record<string, number | undefined> = {};
        for (const k of TIMERS) timers[k] = optionalInt(values, k);
        const nameservers = values.nameservers.split(/[\s,]+/).filter(Boolean);
        dns.updateZone(actor, zone.name, {
          admin_email: values.admin_email,
          nameservers,
          ...timers,
        });
        return ctx.redirect(`${here}?done=updated`);
      } catch (err) {
        const { form, status } = formFailure(err, values, [
          "admin_email",
          "nameservers",
          ...TIMERS,
        ]);
        return page(load(ctx, { settings: form }), { status });
      }
    }
    const values = { text: body.text, replace: body.replace ?? "" };
    try {
      const text = body.file.trim() ? body.file : body.text;
      const r = dns.importZone(actor, zone.name, text, { replace: body.replace === "true" });
      return ctx.redirect(`${here}?done=imported&added=${r.added}&skipped=${r.skipped}`);
    } catch (err) {
      const { form, status } = formFailure(err, values, ["text"], { fallback: "text" });
      return page(load(ctx, { importForm: form }), { status });
    }
  },
});

function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Records({ data }: { data: Data }) {
  const { zone, records } = data;
  const base = `/zones/${encodeURIComponent(zone.name)}`;
  return (
    <section aria-labelledby="records">
      <div class="row spread">
        <h2 id="records">Records</h2>
        <form method="get" class="row" role="search" aria-label="Filter records by type">
          <label class="inline-label">
            Type
            <select name="type">
              <option value="">All types</option>
              {RECORD_TYPES.map((t) => (
                <option key={t} value={t} selected={t === data.type}>{t}</option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
        </form>
      </div>
      {records.length === 0
        ? (
          <p class="empty">
            {data.type ? `No ${data.type} record in this zone.` : "This zone has no records."}
          </p>
        )
        : (
          <div class="table-wrap">
            <table class="records">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col" class="num">TTL</th>
                  <th scope="col">Value</th>
                  {data.canEdit && (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {records.map((r) => (
                  <tr data-record-id={r.id}>
                    <th scope="row">{r.domain}</th>
                    <td>
                      <code>{r.type}</code>
                    </td>
                    <td class="num">{r.ttl}</td>
                    <td class="value">
                      <code>{r.value}</code>
                    </td>
                    {data.canEdit && (
                      <td class="row-actions">
                        {r.type === "SOA" ? <span class="muted">from the zone's settings</span> : (
                          <>
                            <a href={`${base}/records/${r.id}`}>
                              Edit<span class="visually-hidden">{` ${r.type} ${r.domain}`}</span>
                            </a>
                            <a href={`${base}/records/${r.id}/delete`} class="danger">
                              Delete
                              <span class="visually-hidden">{` ${r.type} ${r.domain}`}</span>
                            </a>
                          </>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}

export default function Zone({ data }: PageProps<Data>) {
  const { zone, add, settings, importForm } = data;
  const base = `/zones/${encodeURIComponent(zone.name)}`;
  return (
    <>
      <PageHeader title={zone.name} back={{ href: "/zones", label: "Zones" }}>
        <a class="button-link" href={`${base}/export`}>Export zone file</a>
        {data.canEdit && <a class="button-link danger" href={`${base}/delete`}>Delete zone…</a>}
      </PageHeader>
      <Notice message={data.notice} />
      <dl class="facts card">
        <Fact label="Serial">{zone.serial}</Fact>
        <Fact label="Records">{zone.records_count}</Fact>
        <Fact label="Nameservers">{zone.nameservers.join(", ")}</Fact>
        <Fact label="Contact">{zone.admin_email}</Fact>
        <Fact label="Default TTL">{zone.default_ttl} s</Fact>
        <Fact label="Changed">{formatTime(zone.updated_at)}</Fact>
      </dl>
      {data.canEdit && (
        <section aria-labelledby="add-record">
          <h2 id="add-record">Add a record</h2>
          <form method="post" class="card form-grid" aria-labelledby="add-record" novalidate>
            <input type="hidden" name="_action" value="add" />
            <FormError form={add} />
            <Field
              form={add}
              name="domain"
              label="Name"
              placeholder="www"
              idPrefix="ra"
              help={`Relative to ${zone.name}; @ is the apex.`}
            />
            <Select
              form={add}
              name="type"
              label="Type"
              idPrefix="ra"
              options={TYPES.map((t) => [t, t])}
            />
            <Field
              form={add}
              name="value"
              label="Value"
              required
              placeholder="192.0.2.10"
              idPrefix="ra"
              help="Names inside values are absolute: mail.example.org."
            />
            <Field
              form={add}
              name="ttl"
              label="TTL (s)"
              inputMode="numeric"
              placeholder={String(zone.default_ttl)}
              idPrefix="ra"
            />
            <div class="form-actions">
              <button type="submit" class="primary">Add record</button>
            </div>
          </form>
        </section>
      )}
      <Records data={data} />
      {data.canEdit && (
        <div class="columns">
          <section aria-labelledby="zone-settings">
            <h2 id="zone-settings">Zone settings</h2>
            <form method="post" class="card form-grid" aria-labelledby="zone-settings" novalidate>
              <input type="hidden" name="_action" value="update" />
              <FormError form={settings} />
              <Field
                form={settings}
                name="admin_email"
                label="Contact e-mail"
                required
                idPrefix="zs"
              />
              <Field
                form={settings}
                name="nameservers"
                label="Nameservers"
                required
                idPrefix="zs"
              />
              <Field
                form={settings}
                name="default_ttl"
                label="Default TTL"
                required
                inputMode="numeric"
                idPrefix="zs"
              />
              <Field
                form={settings}
                name="refresh"
                label="Refresh"
                required
                inputMode="numeric"
                idPrefix="zs"
              />
              <Field
                form={settings}
                name="retry"
                label="Retry"
                required
                inputMode="numeric"
                idPrefix="zs"
              />
              <Field
                form={settings}
                name="expire"
                label="Expire"
                required
                inputMode="numeric"
                idPrefix="zs"
              />
              <Field
                form={settings}
                name="minimum"
                label="Negative TTL"
                required
                inputMode="numeric"
                idPrefix="zs"
              />
              <div class="form-actions">
                <button type="submit" class="primary">Save zone</button>
              </div>
            </form>
          </section>
          <section aria-labelledby="import">
            <h2 id="import">Import into {zone.name}</h2>
            <form
              method="post"
              enctype="multipart/form-data"
              class="card stack"
              aria-labelledby="import"
              novalidate
            >
              <input type="hidden" name="_action" value="import" />
              <FormError form={importForm} />
              <ZoneImportFields form={importForm} />
              <button type="submit" class="primary">Import</button>
            </form>
          </section>
        </div>
      )}
    </>
  );
}
