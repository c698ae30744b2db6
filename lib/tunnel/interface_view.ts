/** An interface as the API shows it; the private key never appears. */
import { isoTime } from "../clock.ts";
import type { CountedInterface } from "./interface_repo.ts";

/** An interface as the API shows it; the private key never appears. */
export interface InterfaceView {
  id: string;
  name: string;
  address_v4: string;
  listen_port: number | null;
  mtu: number;
  role: "overlay" | "upstream";
  enabled: boolean;
  public_key: string;
  peer_count: number;
  /** The zone its enabled peers are published in (docs/tunnels.md, "Peer names in DNS"). */
  dns_zone: string | null;
  created_at: string;
  updated_at: string;
}

/** The view of a stored interface. */
export function interfaceView(r: CountedInterface): InterfaceView {
  return {
    id: r.id,
    name: r.name,
    address_v4: r.address_v4,
    listen_port: r.listen_port,
    mtu: r.mtu,
    role: r.role,
    enabled: r.enabled === 1,
    public_key: r.public_key,
    peer_count: r.peer_count,
    dns_zone: r.dns_zone ?? null,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}
