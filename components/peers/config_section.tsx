import type { ComponentChildren } from "preact";
import {
  choicesQuery,
  type ConfigChoices,
  ConfigChoicesForm,
  configOptions,
  profileLine,
} from "@/components/peers/config_choices.tsx";
import QrDialog from "@/islands/QrDialog.tsx";
import type { ClientProfile } from "@/lib/tunnel/client_profiles.ts";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import type { FormState } from "@/server/http/form.ts";

/** Why a peer's configuration cannot be offered at all, or null when it can. */
function whyNot(peer: PeerWithTelemetry, canEdit: boolean): ComponentChildren {
  if (peer.status === "revoked") return "A revoked peer has no configuration: its keys are erased.";
  if (!peer.has_private_key) {
    return "The client made its own keys, so only it holds the private key a configuration needs.";
  }
  if (!canEdit) return "Downloading a configuration needs the operator role.";
  return null;
}

/** The choices (device, connection, endpoint), then the download and QR code made with them. */
export function ConfigSection(
  { peer, canEdit, endpointReady, choices, form, profile }: {
    peer: PeerWithTelemetry;
    canEdit: boolean;
    /** The server's public host is set: configurations can be rendered without an endpoint. */
    endpointReady: boolean;
    /** The choices of the query string. */
    choices: ConfigChoices;
    /** The choices as typed, with a refusal next to its field. */
    form: FormState;
    /** What device and connection resolve to; null when neither is given or one is refused. */
    profile: ClientProfile | null;
  },
) {
  const why = whyNot(peer, canEdit);
  const refused = Object.keys(form.errors).length > 0;
  const hasEndpoint = endpointReady || !!configOptions(choices).endpoint;
  const query = choicesQuery(choices);
  return (
    <section aria-labelledby="config">
      <h2 id="config">Client configuration</h2>
      {why ? <p class="muted">{why}</p> : (
        <div class="stack">
          <ConfigChoicesForm
            action={`/peers/${peer.id}#config`}
            form={form}
            submitLabel="Apply choices"
            line={refused ? null : profileLine(peer, profile)}
          />
          {!hasEndpoint && (
            <p class="muted">
              Configurations need the server's public address: give an endpoint above, or set the
              public host in <a href="/settings">Settings</a>.
            </p>
          )}
          {hasEndpoint && !refused && (
            <div class="actions">
              <a class="button-link primary" href={`/peers/${peer.id}/config${query}`}>
                Download configuration
              </a>
              <QrDialog href={`/peers/${peer.id}/qr${query}`} name={peer.name} />
              <p class="help wide">
                Each download is recorded in the audit log: the file holds the peer's private key.
              </p>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
