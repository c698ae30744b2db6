import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import type { DnsRecord } from "@/lib/dns/dns_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, optionalInt } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Edit a record", access: "operator" },
  POST: {
    summary: "Save a record from the form",
    access: "operator",
    body: z.object({
      value: z.string().max(4000).default(""),
      ttl: z.string().max(20).default(""),
    }),
  },
});

interface Data {
  zone: string;
  record: DnsRecord;
  form: FormState;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Edit record";
    const { dns } = ctx.services;
    const record = await dns.getRecord(ctx.params.name, ctx.params.id);
    const zone = (await dns.getZone(ctx.params.name)).name;
    return page<Data>({
      zone,
      record,
      form: emptyForm({ value: record.value, ttl: String(record.ttl) }),
    });
  },
  async POST(ctx) {
    ctx.state.title = "Edit record";
    const { dns } = ctx.services;
    const zone = (await dns.getZone(ctx.params.name)).name;
    const record = await dns.getRecord(zone, ctx.params.id);
    try {
      await dns.updateRecord(ctx.auth.user.username, zone, record.id, {
        value: ctx.body.value,
        ttl: optionalInt(ctx.body, "ttl"),
      });
      return ctx.redirect(`/zones/${encodeURIComponent(zone)}?done=record_updated`);
    } catch (err) {
      const { form, status } = formFailure(err, ctx.body, ["value", "ttl"], { fallback: "value" });
      return page<Data>({ zone, record, form }, { status });
    }
  },
});

export default function EditRecord({ data }: PageProps<Data>) {
  const { record, form, zone } = data;
  const back = `/zones/${encodeURIComponent(zone)}`;
  return (
    <Page title={`${record.type} record ${record.domain}`} back={{ href: back, label: zone }}>
      <PostForm form={form} class="card form-grid" label="Edit record">
        <Field form={form} name="value" label="Value" required />
        <Field form={form} name="ttl" label="TTL (s)" inputMode="numeric" />
        <FormActions label="Save record">
          <a class="button-link" href={back}>Cancel</a>
        </FormActions>
      </PostForm>
    </Page>
  );
}
