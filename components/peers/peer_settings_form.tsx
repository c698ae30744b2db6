/**
 * The settings form of a peer's page: its values from the peer and its
 * limits, how they become the services' one update (the peer and its expiry
 * and quota in one transaction), and the refusal next to its field.
 */
import { z } from "zod";
import { Check, Field, Select } from "@/components/form_fields.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import type { LimitsView } from "@/lib/tunnel/lifecycle/limits_service.ts";
import type { PeerUpdate, PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import type { RoutingProfile } from "@/lib/tunnel/validate.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { formFailure, type FormState, optionalInt, optionalText } from "@/server/http/form.ts";
import {
  LIMITS_ALIASES,
  LIMITS_FIELD_NAMES,
  LimitsFields,
  limitsInputOf,
  limitsValuesOf,
} from "./limits_fields.tsx";
import { Checked, PEER_FIELDS, ROUTING_OPTIONS } from "./peer_fields.ts";

/**
 * The form's fields as posted. The limit fields are optional: a post
 * without them (an older page, a script) leaves the limits as they are.
 */
export const PeerSettingsBody = z.object({
  ...PEER_FIELDS,
  preshared_key: Checked,
  expires_at: z.string().max(64).optional(),
  quota_mib: z.string().max(32).optional(),
  period_days: z.string().max(8).optional(),
});

const FIELDS = [...Object.keys(PEER_FIELDS), ...LIMITS_FIELD_NAMES];

type Posted = z.infer<typeof PeerSettingsBody>;
type Values = Record<keyof Posted, string>;

/** The form's values as the peer and its limits are now (empty allowed IPs: from the routing choice). */
export function peerSettingsOf(p: PeerWithTelemetry, limits: LimitsView): Values {
  return {
    name: p.name,
    profile: p.profile,
    address: p.address,
    dns: p.dns,
    keepalive: p.keepalive === null ? "" : String(p.keepalive),
    mtu: p.mtu === null ? "" : String(p.mtu),
    allowed_ips: p.allowed_ips_custom ? p.allowed_ips : "",
    preshared_key: p.has_preshared_key ? "true" : "",
    ...limitsValuesOf(limits),
  };
}

/** The posted values as the form shows them again (absent fields empty). */
export function postedValues(body: Omit<Posted, "_action">): Values {
  return {
    ...body,
    preshared_key: body.preshared_key ?? "",
    expires_at: body.expires_at ?? "",
    quota_mib: body.quota_mib ?? "",
    period_days: body.period_days ?? "",
  };
}

/**
 * Saves the peer of the page (an empty field clears its setting) and, when
 * the limit fields were posted, its limits in the same transaction; returns
 * the page with its notice. A refused value changes nothing.
 */
export async function savePeerSettings(ctx: SignedInContext, posted: Posted): Promise<string> {
  const id = ctx.params.id;
  const actor = ctx.auth.user.username;
  const { peers, limits } = ctx.services.tunnels;
  const values = postedValues(posted);
  const update: PeerUpdate = {
    name: values.name.trim(),
    profile: values.profile as RoutingProfile,
    address: values.address.trim(),
    dns: values.dns.trim(),
    keepalive: optionalInt(values, "keepalive") ?? null,
    mtu: optionalInt(values, "mtu") ?? null,
    allowed_ips: optionalText(values, "allowed_ips") ?? null,
    preshared_key: values.preshared_key === "true",
  };
  const withLimits = [posted.expires_at, posted.quota_mib, posted.period_days]
    .some((v) => v !== undefined);
  if (!withLimits) await peers.update(id, update, actor);
  else {
    // Parsed before anything is written: a refused limit leaves the peer as it was.
    const input = limitsInputOf(values);
    await limits.setWithPeer(id, input, actor, (within) => peers.update(id, update, actor, within));
  }
  return `/peers/${id}?done=updated`;
}

/** A refused update as form state. */
export function peerSettingsFailure(err: unknown, values: Values) {
  return formFailure(err, values, FIELDS, { aliases: LIMITS_ALIASES });
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
      <LimitsFields form={form} />
      <FormActions label="Save" />
    </PostForm>
  );
}
