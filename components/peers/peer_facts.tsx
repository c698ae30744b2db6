import { Fact, Facts } from "@/components/fact.tsx";
import { formatTime } from "@/components/format.ts";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";

/** A peer's stored settings, keys and last endpoint; live: rendered again when the peer changes. */
export function PeerFacts({ peer }: { peer: PeerWithTelemetry }) {
  return (
    <section aria-labelledby="facts">
      <div class="row spread">
        <h2 id="facts">Details</h2>
        <LiveRegion
          region="peer-facts"
          pill={false}
          on={[{ type: "PeerChanged", where: { id: peer.id } }]}
        />
      </div>
      <div id="peer-facts">
        <Facts>
          <Fact label="Interface">
            <a href={`/tunnels/${peer.interface_id}`}>{peer.interface_name}</a>
          </Fact>
          <Fact label="Address">
            <code>{peer.address}</code>
          </Fact>
          <Fact label="Routing">{peer.profile}</Fact>
          <Fact label="Allowed IPs">
            <code>{peer.allowed_ips}</code>
          </Fact>
          <Fact label="DNS">{peer.dns || "—"}</Fact>
          <Fact label="Keepalive">{peer.keepalive ? `${peer.keepalive} s` : "off"}</Fact>
          <Fact label="MTU">{peer.mtu ?? "interface's"}</Fact>
          <Fact label="Preshared key">{peer.has_preshared_key ? "yes" : "no"}</Fact>
          <Fact label="Public key">
            <code class="key">{peer.public_key}</code>
          </Fact>
          <Fact label="Endpoint">{peer.telemetry?.endpoint ?? "—"}</Fact>
          <Fact label="Created">{formatTime(peer.created_at)}</Fact>
          <Fact label="Updated">{formatTime(peer.updated_at)}</Fact>
        </Facts>
      </div>
    </section>
  );
}
