/** The new-zone form of the zones list: its fields, what it creates, and its refusals. */
import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { FormSection } from "@/components/post_form.tsx";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";
import { parseNameservers } from "./nameservers.ts";

const Text = formText(1000);

/** The form's fields as posted. */
export const NewZoneBody = z.object({
  name: Text,
  admin_email: Text,
  default_ttl: Text,
  nameservers: Text,
});

type Values = z.infer<typeof NewZoneBody>;

/** Creates the zone; returns its page with its notice. */
export async function createZone(ctx: SignedInContext, values: Values): Promise<string> {
  const nameservers = parseNameservers(values.nameservers);
  const zone = await ctx.services.dns.createZone(ctx.auth.user.username, {
    name: values.name,
    admin_email: values.admin_email,
    default_ttl: optionalInt(values, "default_ttl"),
    nameservers: nameservers.length ? nameservers : undefined,
  });
  return `/zones/${encodeURIComponent(zone.name)}?done=created`;
}

/** A refused zone as form state; "already exists" names no field but is about the name. */
export function newZoneFailure(err: unknown, values: Values) {
  return formFailure(err, values, Object.keys(NewZoneBody.shape), { fallback: "name" });
}

/** The new-zone form, for operators. */
export function NewZoneForm({ form }: { form: FormState }) {
  return (
    <FormSection id="new-zone" heading="New zone" form={form} action="create" class="card stack">
      <Field
        form={form}
        name="name"
        label="Zone name"
        required
        placeholder="example.org"
        idPrefix="zc"
      />
      <Field
        form={form}
        name="admin_email"
        label="Administrator e-mail"
        type="email"
        required
        placeholder="hostmaster@example.org"
        idPrefix="zc"
        help="The SOA contact."
      />
      <Field
        form={form}
        name="default_ttl"
        label="Default TTL (s)"
        inputMode="numeric"
        placeholder="3600"
        idPrefix="zc"
      />
      <Field
        form={form}
        name="nameservers"
        label="Nameservers"
        placeholder="ns1.example.org, ns2.example.org"
        idPrefix="zc"
        help="The configured nameservers when empty."
      />
      <button type="submit" class="primary">Create zone</button>
    </FormSection>
  );
}
