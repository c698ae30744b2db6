/**
 * The add-record form of the zone page: its fields, how its names become
 * owner names, and how a refusal lands next to the right field.
 */
import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { ZoneDetails } from "@/lib/dns/dns_service.ts";
import { RECORD_TYPES } from "@/lib/dns/rdata.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";

/** The SOA comes from the zone's settings, so it is not offered. */
const TYPES = RECORD_TYPES.filter((t) => t !== "SOA");

const Text = formText(4000);

/** The form's fields as posted. */
export const RecordBody = z.object({ domain: Text, type: Text, value: Text, ttl: Text });

type Values = z.infer<typeof RecordBody>;

/** "www" → "www.example.org", "@" and full names unchanged: names in the form are relative to the zone. */
function ownerName(input: string, zone: string): string {
  const v = input.trim();
  if (v === "" || v === "@" || v.endsWith(".")) return v || "@";
  const lower = v.toLowerCase();
  return lower === zone || lower.endsWith(`.${zone}`) ? v : `${v}.${zone}`;
}

/** Adds the record; returns the zone's page with its notice. */
export async function addRecord(
  ctx: SignedInContext,
  zone: string,
  values: Values,
): Promise<string> {
  await ctx.services.dns.createRecord(ctx.auth.user.username, zone, {
    domain: ownerName(values.domain, zone),
    type: values.type,
    value: values.value,
    ttl: optionalInt(values, "ttl"),
  });
  return `/zones/${encodeURIComponent(zone)}?done=record_created`;
}

/** A refused record as form state. */
export function recordFailure(err: unknown, values: Values): { form: FormState; status: number } {
  return formFailure(err, values, Object.keys(RecordBody.shape));
}

/** The add-record form, for operators. */
export function AddRecordForm({ zone, form }: { zone: ZoneDetails; form: FormState }) {
  return (
    <FormSection
      id="add-record"
      heading="Add a record"
      form={form}
      action="add"
      class="card form-grid"
    >
      <Field
        form={form}
        name="domain"
        label="Name"
        placeholder="www"
        idPrefix="ra"
        help={`Relative to ${zone.name}; @ is the apex.`}
      />
      <Select
        form={form}
        name="type"
        label="Type"
        idPrefix="ra"
        options={TYPES.map((t) => [t, t])}
      />
      <Field
        form={form}
        name="value"
        label="Value"
        required
        placeholder="192.0.2.10"
        idPrefix="ra"
        help="Names inside values are absolute: mail.example.org."
      />
      <Field
        form={form}
        name="ttl"
        label="TTL (s)"
        inputMode="numeric"
        placeholder={String(zone.default_ttl)}
        idPrefix="ra"
      />
      <FormActions label="Add record" />
    </FormSection>
  );
}
