/**
 * The settings form of a peer's page: its values from the peer, how they
 * become the service's update, and the refusal next to its field.
 */
import { z } from "zod";
import { Check, Field, Select } from "@/components/form_fields.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import type { RoutingProfile } from "@/lib/tunnel/validate.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { formFailure, type FormState, optionalInt, optionalText } from "@/server/http/form.ts";
import { Checked, PEER_FIELDS, ROUTING_OPTIONS } from "./peer_fields.ts";

/** The form's fields as posted. */
export const PeerSettingsBody = z.object({ ...PEER_FIELDS, preshared_key: Checked });

const FIELDS = Object.keys(PEER_FIELDS);

type Values = Record<keyof z.infer<typeof PeerSettingsBody>, string>;

/** The form's values as the peer has them now (empty allowed IPs: from the routing choice). */
export function peerSettingsOf(p: PeerWithTelemetry): Values {
  return {
    name: p.name,
    profile: p.profile,
    address: p.address,
    dns: p.dns,
    keepalive: p.keepalive === null ? "" : String(p.keepalive),
    mtu: p.mtu === null ? "" : String(p.mtu),
    allowed_ips: p.allowed_ips_custom ? p.allowed_ips : "",
    preshared_key: p.has_preshared_key ? "true" : "",
  };
}

/** Saves the peer of the page (an empty field clears its setting); returns the page with its notice. */
export async function savePeerSettings(ctx: SignedInContext, values: Values): Promise<string> {
  const id = ctx.params.id;
  await ctx.services.tunnels.peers.update(id, {
    name: values.name.trim(),
    profile: values.profile as RoutingProfile,
    address: values.address.trim(),
    dns: values.dns.trim(),
    keepalive: optionalInt(values, "keepalive") ?? null,
    mtu: optionalInt(values, "mtu") ?? null,
    allowed_ips: optionalText(values, "allowed_ips") ?? null,
    preshared_key: values.preshared_key === "true",
  }, ctx.auth.user.username);
  return `/peers/${id}?done=updated`;
}

/** A refused update as form state. */
export function peerSettingsFailure(err: unknown, values: Values) {
  return formFailure(err, values, FIELDS);
}

/** The settings form, for operators, of a peer that is not revoked. */
export function PeerSettingsForm({ peer, form }: { peer: PeerWithTelemetry; form: FormState }) {
  return (
    <PostForm form={form} action="update" class="card form-grid" label="Peer settings">
      <Field form={form} name="name" label="Name" required />
      <Select form={form} name="profile" label="Routing" options={ROUTING_OPTIONS} />
      <Field form={form} name="address" label="Address" required />
      <Field form={form} name="dns" label="DNS servers" />
      <Field
        form={form}
        name="allowed_ips"
        label="Allowed IPs"
        placeholder={peer.allowed_ips_custom ? "" : peer.allowed_ips}
        help="Empty: from the routing choice."
      />
      <Field form={form} name="keepalive" label="Keepalive (s)" inputMode="numeric" />
      <Field form={form} name="mtu" label="MTU" inputMode="numeric" />
      <Check
        form={form}
        name="preshared_key"
        label="Use a preshared key"
        checked={form.values.preshared_key === "true"}
      />
      <FormActions label="Save" />
    </PostForm>
  );
}
