/**
 * The new-peer form: its fields (the rarely needed ones under Advanced), how
 * they become the service's input, and the refusal next to its field.
 */
import { z } from "zod";
import { Check, Field, Select } from "@/components/form_fields.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import type { RoutingProfile } from "@/lib/tunnel/validate.ts";
import { formFailure, type FormState, optionalInt, optionalText } from "@/server/http/form.ts";
import { Checked, PEER_FIELDS, PeerText, ROUTING_OPTIONS } from "./peer_fields.ts";
import { LIMITS_FIELD_NAMES, LIMITS_FIELDS, LimitsFields } from "./limits_fields.tsx";

/** The form's fields as posted. */
export const NewPeerBody = z.object({
  interface_id: PeerText,
  ...PEER_FIELDS,
  public_key: PeerText,
  preshared_key: Checked,
  enabled: Checked,
  ...LIMITS_FIELDS,
});

/** The fields a refusal can be about. */
const FIELDS = [
  "interface_id",
  ...Object.keys(PEER_FIELDS),
  "public_key",
  ...LIMITS_FIELD_NAMES,
];

const ADVANCED = ["allowed_ips", "keepalive", "mtu", "public_key"];

type Values = Record<keyof z.infer<typeof NewPeerBody>, string>;

/** An interface a peer can be created on, as the form offers it. */
export interface InterfaceChoice {
  id: string;
  name: string;
  address_v4: string;
}

/** The service's input from the form's values; empty fields take the defaults. */
export function newPeerInput(values: Values) {
  return {
    name: values.name.trim(),
    profile: (values.profile || "full-tunnel") as RoutingProfile,
    address: optionalText(values, "address"),
    dns: optionalText(values, "dns"),
    keepalive: optionalInt(values, "keepalive"),
    mtu: optionalInt(values, "mtu"),
    allowed_ips: optionalText(values, "allowed_ips"),
    public_key: optionalText(values, "public_key"),
    preshared_key: values.preshared_key === "true",
    enabled: values.enabled === "true",
  };
}

/** A refused peer as form state. */
export function newPeerFailure(err: unknown, values: Values): { form: FormState; status: number } {
  return formFailure(err, values, FIELDS, {
    aliases: { quota_bytes: "quota_mib", quota_period_days: "period_days" },
  });
}

/** The new-peer form, on an interface of `interfaces`. */
export function NewPeerForm(
  { interfaces, form }: { interfaces: InterfaceChoice[]; form: FormState },
) {
  return (
    <PostForm form={form} class="card form-grid" label="New peer">
      <Select
        form={form}
        name="interface_id"
        label="Interface"
        options={interfaces.map((i) => [i.id, `${i.name} (${i.address_v4})`])}
      />
      <Field
        form={form}
        name="name"
        label="Name"
        required
        placeholder="alice-laptop"
        help="Up to 64 ASCII letters, digits, spaces and ._@+-; it names the config file."
      />
      <Select form={form} name="profile" label="Routing" options={ROUTING_OPTIONS} />
      <Field
        form={form}
        name="address"
        label="Address"
        placeholder="allocated"
        help="A free host address of the interface's block; the lowest free one when empty."
      />
      <Field
        form={form}
        name="dns"
        label="DNS servers"
        placeholder="10.8.0.1, 1.1.1.1"
        help="Written into the client's configuration."
      />
      <Advanced form={form} />
      <LimitsFields form={form} />
      <Check
        form={form}
        name="enabled"
        label="Enable now"
        checked={form.values.enabled === "true"}
      />
      <FormActions label="Create peer">
        <a href="/peers" class="button-link">Cancel</a>
      </FormActions>
    </PostForm>
  );
}

/** Fields most peers leave empty: open when one of them is filled in or refused. */
function Advanced({ form }: { form: FormState }) {
  return (
    <details
      class="wide"
      open={ADVANCED.some((f) => form.errors[f] || form.values[f]) || undefined}
    >
      <summary>Advanced</summary>
      <div class="form-grid nested">
        <Field
          form={form}
          name="allowed_ips"
          label="Allowed IPs"
          placeholder="from the routing choice"
          help="Client-side AllowedIPs, comma-separated CIDRs."
        />
        <Field
          form={form}
          name="keepalive"
          label="Keepalive (s)"
          inputMode="numeric"
          help="0–65535; 0 or empty is off."
        />
        <Field
          form={form}
          name="mtu"
          label="MTU"
          inputMode="numeric"
          help="1280–9000; the interface's when empty."
        />
        <Field
          form={form}
          name="public_key"
          label="Client public key"
          help="Only when the client made its own keys: no configuration can then be downloaded."
        />
        <Check
          form={form}
          name="preshared_key"
          label="Generate a preshared key"
          checked={form.values.preshared_key === "true"}
        />
      </div>
    </details>
  );
}
