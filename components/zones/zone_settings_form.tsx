/**
 * The zone settings form of the zone page (SOA contact, nameservers and
 * timers): its values from the zone, what a save does, and its refusals.
 */
import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { ZoneDetails } from "@/lib/dns/dns_service.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";
import { parseNameservers } from "./nameservers.ts";

const Text = formText(4000);
const TIMERS = ["default_ttl", "refresh", "retry", "expire", "minimum"] as const;

/** The form's fields as posted. */
export const ZoneSettingsBody = z.object({
  admin_email: Text,
  nameservers: Text,
  default_ttl: Text,
  refresh: Text,
  retry: Text,
  expire: Text,
  minimum: Text,
});

const FIELDS = Object.keys(ZoneSettingsBody.shape);
const LABELS: Record<(typeof TIMERS)[number], string> = {
  default_ttl: "Default TTL",
  refresh: "Refresh",
  retry: "Retry",
  expire: "Expire",
  minimum: "Negative TTL",
};

type Values = z.infer<typeof ZoneSettingsBody>;

/** The form's values as the zone has them now. */
export function zoneSettingsOf(z: ZoneDetails): Record<string, string> {
  return {
    admin_email: z.admin_email,
    nameservers: z.nameservers.join(", "),
    ...Object.fromEntries(TIMERS.map((k) => [k, String(z[k])])),
  };
}

/** Saves the settings; returns the zone's page with its notice. */
export async function updateZoneSettings(
  ctx: SignedInContext,
  zone: string,
  values: Values,
): Promise<string> {
  const timers: Record<string, number | undefined> = {};
  for (const k of TIMERS) timers[k] = optionalInt(values, k);
  await ctx.services.dns.updateZone(ctx.auth.user.username, zone, {
    admin_email: values.admin_email,
    nameservers: parseNameservers(values.nameservers),
    ...timers,
  });
  return `/zones/${encodeURIComponent(zone)}?done=updated`;
}

/** Refused settings as form state. */
export function zoneSettingsFailure(err: unknown, values: Values) {
  return formFailure(err, values, FIELDS);
}

/** The settings form, for operators. */
export function ZoneSettingsForm({ form }: { form: FormState }) {
  return (
    <FormSection
      id="zone-settings"
      heading="Zone settings"
      form={form}
      action="update"
      class="card form-grid"
    >
      <Field form={form} name="admin_email" label="Contact e-mail" required idPrefix="zs" />
      <Field form={form} name="nameservers" label="Nameservers" required idPrefix="zs" />
      {TIMERS.map((name) => (
        <Field
          form={form}
          name={name}
          label={LABELS[name]}
          required
          inputMode="numeric"
          idPrefix="zs"
        />
      ))}
      <FormActions label="Save zone" />
    </FormSection>
  );
}
