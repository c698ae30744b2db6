import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import {
  createZone,
  NewZoneBody,
  newZoneFailure,
  NewZoneForm,
} from "@/components/zones/new_zone_form.tsx";
import {
  ImportBody,
  importZoneFile,
  ZoneImportForm,
} from "@/components/zones/zone_import_form.tsx";
import { ZonesTable } from "@/components/zones/zones_table.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { ZoneSummary } from "@/lib/dns/dns_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
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
      z.object({ _action: z.literal("create"), ...NewZoneBody.shape }),
      z.object({ _action: z.literal("import"), name: Text, ...ImportBody.shape }),
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

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Zones";
  return {
    zones: await ctx.services.dns.listZones(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    create: emptyForm(),
    importForm: emptyForm(),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.zones, ctx.query.done) }));
  },
  async POST(ctx) {
    const body = ctx.body;
    if (body._action === "create") {
      const { _action, ...values } = body;
      try {
        return ctx.redirect(await createZone(ctx, values));
      } catch (err) {
        const { form, status } = newZoneFailure(err, values);
        return page(await load(ctx, { create: form }), { status });
      }
    }
    try {
      return ctx.redirect(await importZoneFile(ctx, body.name, body));
    } catch (err) {
      const values = { name: body.name, text: body.text, replace: body.replace ?? "" };
      const { form, status } = formFailure(err, values, ["name", "text"], { fallback: "text" });
      return page(await load(ctx, { importForm: form }), { status });
    }
  },
});

export default function Zones({ data }: PageProps<Data>) {
  const { importForm } = data;
  return (
    <Page title="Zones" notice={data.notice}>
      <ZonesTable zones={data.zones} canEdit={data.canEdit} />
      {data.canEdit && (
        <div class="columns">
          <NewZoneForm form={data.create} />
          <ZoneImportForm
            id="import-zone"
            heading="Import a zone file"
            form={importForm}
            help="RFC 1035 master file: $ORIGIN, $TTL, relative names, BIND units."
          >
            <Field
              form={importForm}
              name="name"
              label="Zone name"
              required
              placeholder="example.org"
              idPrefix="zi"
              help="Created from the file's SOA when it does not exist."
            />
          </ZoneImportForm>
        </div>
      )}
    </Page>
  );
}
