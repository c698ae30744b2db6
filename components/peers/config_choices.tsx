/**
 * The client configuration's choices, shared by the peer page, the download
 * and the QR page: the device and connection of `GET /client-profiles/resolve`
 * (their MTU and keepalive) and an endpoint for this download only. One GET
 * form, so the choices travel in the query string and need no script.
 */
import { z } from "zod";
import { Field, FormError, Select } from "@/components/form_fields.tsx";
import type { ClientProfile } from "@/lib/tunnel/client_profiles.ts";
import { CONNECTIONS, DEVICES } from "@/lib/tunnel/client_profiles.ts";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import { emptyForm, formFailure, type FormState } from "@/server/http/form.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";

/** The query of the choices; values are checked by the service (its enums), not here. */
export const ConfigChoicesQuery = z.object({
  device: z.string().max(40).optional(),
  connection: z.string().max(40).optional(),
  endpoint: z.string().max(300).optional(),
});

export type ConfigChoices = z.infer<typeof ConfigChoicesQuery>;

export const CHOICE_FIELDS = ["device", "connection", "endpoint"] as const;

/** The choices that were given, as the service's options (empty means not given). */
export function configOptions(q: ConfigChoices): ConfigChoices {
  return {
    device: q.device || undefined,
    connection: q.connection || undefined,
    endpoint: q.endpoint?.trim() || undefined,
  };
}

/** `?device=…&connection=…&endpoint=…` of the given choices, or "". */
export function choicesQuery(q: ConfigChoices, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...configOptions(q), ...extra })) {
    if (v) params.set(k, v);
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** The form's values as typed (for re-rendering it). */
export const choiceValues = (q: ConfigChoices): Record<string, string> => ({
  device: q.device ?? "",
  connection: q.connection ?? "",
  endpoint: q.endpoint ?? "",
});

/**
 * The profile the choices resolve to (null when neither device nor
 * connection is given), or the form with the refusal next to its field and
 * its status: the same check as `GET /client-profiles/resolve`.
 */
export function resolveChoices(
  ctx: SignedInContext,
  q: ConfigChoices,
): { profile: ClientProfile | null; form: FormState; status?: number } {
  const values = choiceValues(q);
  const o = configOptions(q);
  if (!o.device && !o.connection) return { profile: null, form: emptyForm(values) };
  try {
    const profile = ctx.services.tunnels.resolveClientProfile(o.device, o.connection);
    return { profile, form: emptyForm(values) };
  } catch (err) {
    const { form, status } = formFailure(err, values, CHOICE_FIELDS);
    return { profile: null, form, status };
  }
}

/** The refusal of a download or QR as a form state: next to its field when it names one. */
export function choicesFailure(
  err: unknown,
  q: ConfigChoices,
): { form: FormState; status: number } {
  return formFailure(err, choiceValues(q), CHOICE_FIELDS);
}

const keepaliveText = (s: number) => s ? `keepalive every ${s} s` : "keepalive off";

/** What the file will carry: the profile's MTU and keepalive, or the peer's own settings. */
export function profileLine(
  peer: Pick<PeerWithTelemetry, "mtu" | "keepalive">,
  profile: ClientProfile | null,
): string {
  const mtu = peer.mtu !== null
    ? `MTU ${peer.mtu} (the peer's own setting)`
    : profile
    ? `MTU ${profile.mtu}`
    : "the interface's MTU";
  const keepalive = peer.keepalive !== null
    ? `${keepaliveText(peer.keepalive)} (the peer's own setting)`
    : profile
    ? keepaliveText(profile.keepalive)
    : "no keepalive";
  const head = profile ? `${profile.device} on ${profile.connection}` : "No device or connection";
  return `${head}: ${mtu}, ${keepalive}.`;
}

const DEVICE_LABELS: Record<string, string> = {
  desktop: "Desktop or laptop",
  mobile: "Phone or tablet",
  router: "Router (a site)",
};

const CONNECTION_LABELS: Record<string, string> = {
  ipv4: "IPv4, behind a home router",
  ipv6: "Native IPv6, no NAT",
  pppoe: "DSL or fibre with PPPoE",
  cellular: "Mobile carrier network",
  "restrictive-nat": "Hotel, corporate or public network",
};

/** The GET form of the choices, submitted to `action` (the peer page, the download, the QR page). */
export function ConfigChoicesForm(
  { action, form, submitLabel, line }: {
    action: string;
    form: FormState;
    submitLabel: string;
    /** What the current choices resolve to. */
    line?: string | null;
  },
) {
  const none = (what: string): [string, string] => ["", `Not set (${what})`];
  return (
    <form method="get" action={action} class="form-grid config-choices" aria-label="Choices">
      <FormError form={form} />
      <Select
        form={form}
        idPrefix="cfg"
        name="device"
        label="Device"
        options={[
          none("no profile"),
          ...DEVICES.map((d): [string, string] => [d, DEVICE_LABELS[d]]),
        ]}
      />
      <Select
        form={form}
        idPrefix="cfg"
        name="connection"
        label="Connection"
        options={[
          none("no profile"),
          ...CONNECTIONS.map((c): [string, string] => [c, CONNECTION_LABELS[c]]),
        ]}
      />
      <Field
        form={form}
        idPrefix="cfg"
        name="endpoint"
        label="Server endpoint"
        placeholder="vpn.example.org:51820"
        help="For this file only; empty uses the public host of Settings."
      />
      {line && <p class="wide" id="cfg-profile">{line}</p>}
      <div class="actions wide">
        <button type="submit">{submitLabel}</button>
      </div>
    </form>
  );
}
