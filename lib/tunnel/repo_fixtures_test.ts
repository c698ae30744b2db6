/** Rows for the repository tests; no tests of its own. */
import type { InterfaceRow } from "./interface_repo.ts";
import type { PeerRow } from "./peer_repo.ts";

/** An interface row, wg1 on 10.8.0.1/24 unless overridden. */
export function interfaceRow(over: Partial<InterfaceRow> = {}): InterfaceRow {
  const id = over.id ?? crypto.randomUUID();
  return {
    id,
    name: "wg1",
    address_v4: "10.8.0.1/24",
    listen_port: 51820,
    mtu: 1420,
    role: "overlay",
    enabled: 1,
    private_key: `priv-${id}`,
    public_key: `pub-${id}`,
    created_at: 1000,
    updated_at: 1000,
    dns_zone: null,
    ...over,
  };
}

/** A peer row on `interfaceId`, named a at 10.8.0.2 unless overridden. */
export function peerRow(interfaceId: string, over: Partial<PeerRow> = {}): PeerRow {
  const id = over.id ?? crypto.randomUUID();
  return {
    id,
    interface_id: interfaceId,
    name: "a",
    public_key: `pub-${id}`,
    private_key: `priv-${id}`,
    preshared_key: `psk-${id}`,
    address: "10.8.0.2",
    allowed_ips: null,
    dns: "",
    keepalive: null,
    mtu: null,
    profile: "full-tunnel",
    status: "enabled",
    endpoint: null,
    created_at: 1000,
    updated_at: 1000,
    ...over,
  };
}
