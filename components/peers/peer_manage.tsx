import { ActionGroup } from "@/components/action_group.tsx";
import { ActionButton } from "@/components/form_fields.tsx";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import type { FormState } from "@/server/http/form.ts";
import { PeerSettingsForm } from "./peer_settings_form.tsx";

/** An operator's actions on a peer and its settings; a revoked peer can only be deleted. */
export function PeerManage(
  { peer, form, actionError }: {
    peer: PeerWithTelemetry;
    form: FormState;
    actionError: string | null;
  },
) {
  const revoked = peer.status === "revoked";
  return (
    <section aria-labelledby="manage">
      <h2 id="manage">Manage</h2>
      <ActionGroup labelledBy="manage" error={actionError}>
        {!revoked && peer.status === "enabled" && <ActionButton name="disable" label="Disable" />}
        {!revoked && peer.status === "disabled" && <ActionButton name="enable" label="Enable" />}
        {!revoked && <a class="button-link danger" href={`/peers/${peer.id}/revoke`}>Revoke…</a>}
        <a class="button-link danger" href={`/peers/${peer.id}/delete`}>Delete…</a>
      </ActionGroup>
      {revoked
        ? <p class="help">A revoked peer cannot be changed; delete it to free its address.</p>
        : <PeerSettingsForm peer={peer} form={form} />}
    </section>
  );
}
