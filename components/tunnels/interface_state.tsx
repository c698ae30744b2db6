import { ActionGroup } from "@/components/action_group.tsx";
import { Badge } from "@/components/badge.tsx";
import { Fact, Facts } from "@/components/fact.tsx";
import { ActionButton } from "@/components/form_fields.tsx";
import { formatBytes, formatTime } from "@/components/format.ts";
import LiveRegion from "@/islands/LiveRegion.tsx";
import {
  type InterfaceStatus,
  type InterfaceView,
  PROTECTED_INTERFACE,
} from "@/lib/tunnel/interface_service.ts";

/**
 * An interface's stored settings and its state on the host, with its actions
 * for operators; live: rendered again when the interface or one of its peers changes.
 */
export function InterfaceState(
  { iface, status: s, canEdit, actionError }: {
    iface: InterfaceView;
    status: InterfaceStatus;
    canEdit: boolean;
    actionError: string | null;
  },
) {
  return (
    <section aria-labelledby="state">
      <div class="row spread">
        <h2 id="state">State</h2>
        <LiveRegion
          region="interface-state"
          pill={false}
          on={[
            { type: "InterfaceChanged", where: { id: iface.id } },
            { type: "PeerChanged", where: { interface_id: iface.id } },
          ]}
        />
      </div>
      <div id="interface-state" class="stack">
        <Facts>
          <Fact label="Address">
            <code>{iface.address_v4}</code>
          </Fact>
          <Fact label="Listen port">{iface.listen_port ?? "—"}</Fact>
          <Fact label="MTU">{iface.mtu}</Fact>
          <Fact label="Peer names in DNS">
            {iface.dns_zone ? <code>{`<peer>.${iface.dns_zone}`}</code> : "not published"}
          </Fact>
          <Fact label="Link">
            <Badge status={s.link} />
            {!s.host_active && <span class="muted">&nbsp;host layer off</span>}
          </Fact>
          <Fact label="Peers">
            {s.peers.stored} stored, {s.peers.enabled} enabled
            {s.host_active && `, ${s.peers.on_host} on host, ${s.peers.connected} connected`}
          </Fact>
          <Fact label="Transfer">
            {s.host_active
              ? `${formatBytes(s.rx_bytes)} received, ${formatBytes(s.tx_bytes)} sent`
              : "—"}
          </Fact>
          <Fact label="Public key">
            <code class="key">{iface.public_key}</code>
          </Fact>
          <Fact label="Updated">{formatTime(iface.updated_at)}</Fact>
        </Facts>
        {canEdit && <InterfaceActions iface={iface} error={actionError} />}
      </div>
    </section>
  );
}

/** Enable or disable, restart, delete; the protected interface can only be restarted or enabled. */
function InterfaceActions({ iface, error }: { iface: InterfaceView; error: string | null }) {
  const isProtected = iface.name === PROTECTED_INTERFACE;
  return (
    <ActionGroup label="Interface actions" error={error}>
      {iface.enabled
        ? (!isProtected && <ActionButton name="disable" label="Disable" />)
        : <ActionButton name="enable" label="Enable" />}
      <ActionButton name="restart" label="Restart" />
      {!isProtected && (
        <a class="button-link danger" href={`/tunnels/${iface.id}/delete`}>Delete…</a>
      )}
      {isProtected && <p class="help">{PROTECTED_INTERFACE} is the protected default interface.</p>}
    </ActionGroup>
  );
}
