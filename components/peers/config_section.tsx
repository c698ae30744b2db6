import type { ComponentChildren } from "preact";
import QrDialog from "@/islands/QrDialog.tsx";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";

/** Why a peer's configuration cannot be offered, or null when it can. */
function whyNot(
  peer: PeerWithTelemetry,
  canEdit: boolean,
  endpointReady: boolean,
): ComponentChildren {
  if (peer.status === "revoked") return "A revoked peer has no configuration: its keys are erased.";
  if (!peer.has_private_key) {
    return "The client made its own keys, so only it holds the private key a configuration needs.";
  }
  if (!canEdit) return "Downloading a configuration needs the operator role.";
  if (!endpointReady) {
    return (
      <>
        Configurations need the server's public address: set the public host in{" "}
        <a href="/settings">Settings</a>.
      </>
    );
  }
  return null;
}

/** The download and QR code of a peer's configuration, or why there is none. */
export function ConfigSection(
  { peer, canEdit, endpointReady }: {
    peer: PeerWithTelemetry;
    canEdit: boolean;
    /** The server's public host is set: configurations can be rendered. */
    endpointReady: boolean;
  },
) {
  const why = whyNot(peer, canEdit, endpointReady);
  return (
    <section aria-labelledby="config">
      <h2 id="config">Client configuration</h2>
      {why ? <p class="muted">{why}</p> : (
        <div class="actions">
          <a class="button-link primary" href={`/peers/${peer.id}/config`}>
            Download configuration
          </a>
          <QrDialog href={`/peers/${peer.id}/qr`} name={peer.name} />
          <p class="help wide">
            Each download is recorded in the audit log: the file holds the peer's private key.
          </p>
        </div>
      )}
    </section>
  );
}
