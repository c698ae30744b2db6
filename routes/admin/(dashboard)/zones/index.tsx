import { z } from "zod";
import { Field, FormError } from "@/components/form_fields.tsx";
import { formatCount, formatTime } from "@/components/format.ts";
import { Notice } from "@/components/notice.tsx";
import { ZoneImportFields } from "@/components/zone_import_fields.tsx";
import { PageHeader } from "@/components/page_header.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { ZoneSummary } from "@/lib/dns/dns_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import {
  emptyForm,
  formFailure,
  type FormState,
  formText,
  optionalInt,
} from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const Text = formText(1000);

export const meta = define.meta({
  GET: {
    summary: "Zones page: list, create, import",
    access: "viewer",
    query: z.object({ done: z.literal("deleted").optional() }),
  },
  POST: {
    summary: "Create or import a zone from the page's forms",
    access: "operator",
    body: z.discriminatedUnion("_action", [
      z.object({
        _action: z.literal("create"),
        name: Text,
        admin_email: Text,
        default_ttl: Text,
        nameservers: Text,
      }),
      z.object({
        _action: z.literal("import"),
        name: Text,
        // A zone file, pasted or uploaded; the body limit (1 MiB) bounds it.
        text: z.string().default(""),
        file: z.string().default(""),
        replace: z.literal("true").optional(),
      }),
    ]),
  },
});

interface Data {
  zones: ZoneSummary[];
  canEdit: boolean;
  create: FormState;
  importForm: FormState;
  notice: string | null;
}

function load(ctx: SignedInContext, over: Partial<Data> = {}): Data {
  ctx.state.title = "Zones";
  return {
    zones: ctx.services.dns.listZones(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    create: emptyForm(),
    importForm: emptyForm(),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    return page(load(ctx, { notice: ctx.query.done ? "Zone deleted." : null }));
  },
  POST(ctx) {
    const { dns } = ctx.services;
    const actor = ctx.auth.user.username;
    const body = ctx.body;
    if (body._action === "create") {
      const { _action, ...values } = body;
      try {
        const nameservers = values.nameservers.split(/[\s,]+/).filter(Boolean);
        const zone = dns.createZone(actor, {
          name: values.name,
          admin_email: values.admin_email,
          default_ttl: optionalInt(values, "default_ttl"),
          nameservers: nameservers.length ? nameservers : undefined,
        });
        return ctx.redirect(`/zones/${encodeURIComponent(zone.name)}?done=created`);
      } catch (err) {
        const { form, status } = formFailure(
          err,
          values,
          ["name", "admin_email", "default_ttl", "nameservers"],
          { fallback: "name" },
        );
        return page(load(ctx, { create: form }), { status });
      }
    }
    const values = { name: body.name, text: body.text, replace: body.replace ?? "" };
    try {
      const text = body.file.trim() ? body.file : body.text;
      const r = dns.importZone(actor, body.name, text, { replace: body.replace === "true" });
      return ctx.redirect(
        `/zones/${encodeURIComponent(r.zone)}?done=imported&added=${r.added}&skipped=${r.skipped}`,
      );
    } catch (err) {
      const { form, status } = formFailure(err, values, ["name", "text"], { fallback: "text" });
      return page(load(ctx, { importForm: form }), { status });
    }
  },
});

export default function Zones({ data }: PageProps<Data>) {
  const { zones, create, importForm } = data;
  return (
    <>
      <PageHeader title="Zones" />
      <Notice message={data.notice} />
      <section aria-labelledby="zones">
        <h2 id="zones">Authoritative zones</h2>
        {zones.length === 0
          ? (
            <p class="empty">
              No zone yet. {data.canEdit ? "Create one or import a zone file below." : ""}
            </p>
          )
          : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Zone</th>
                    <th scope="col" class="num">Records</th>
                    <th scope="col">Changed</th>
                  </tr>
                </thead>
                <tbody>
                  {zones.map((z) => (
                    <tr>
                      <th scope="row">
                        <a href={`/zones/${encodeURIComponent(z.name)}`}>{z.name}</a>
                      </th>
                      <td class="num">{formatCount(z.records_count)}</td>
                      <td>{formatTime(z.updated_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>
      {data.canEdit && (
        <div class="columns">
          <section aria-labelledby="new-zone">
            <h2 id="new-zone">New zone</h2>
            <form method="post" class="card stack" aria-labelledby="new-zone" novalidate>
              <input type="hidden" name="_action" value="create" />
              <FormError form={create} />
              <Field
                form={create}
                name="name"
                label="Zone name"
                required
                placeholder="example.org"
                idPrefix="zc"
              />
              <Field
                form={create}
                name="admin_email"
                label="Administrator e-mail"
                type="email"
                required
                placeholder="hostmaster@example.org"
                idPrefix="zc"
                help="The SOA contact."
              />
              <Field
                form={create}
                name="default_ttl"
                label="Default TTL (s)"
                inputMode="numeric"
                placeholder="3600"
                idPrefix="zc"
              />
              <Field
                form={create}
                name="nameservers"
                label="Nameservers"
                placeholder="ns1.example.org, ns2.example.org"
                idPrefix="zc"
                help="The configured nameservers when empty."
              />
              <button type="submit" class="primary">Create zone</button>
            </form>
          </section>
          <section aria-labelledby="import-zone">
            <h2 id="import-zone">Import a zone file</h2>
            <form
              method="post"
              enctype="multipart/form-data"
              class="card stack"
              aria-labelledby="import-zone"
              novalidate
            >
              <input type="hidden" name="_action" value="import" />
              <FormError form={importForm} />
              <Field
                form={importForm}
                name="name"
                label="Zone name"
                required
                placeholder="example.org"
                idPrefix="zi"
                help="Created from the file's SOA when it does not exist."
              />
              <ZoneImportFields
                form={importForm}
                help="RFC 1035 master file: $ORIGIN, $TTL, relative names, BIND units."
              />
              <button type="submit" class="primary">Import</button>
            </form>
          </section>
        </div>
      )}
    </>
  );
}
