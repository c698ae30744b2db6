/**
 * A peer as the API shows it (no private or preshared key), with live
 * telemetry merged from one host read.
 */
import { CONNECTED_WINDOW_SECONDS, type LiveInterface } from "../host/driver.ts";
import { effectiveAllowedIps } from "./client_config.ts";
import { fastIso } from "./fast_iso.ts";
import type { PeerLimitsBrief } from "./lifecycle/limits_view.ts";
import type { ListedPeer, PeerStatus, PeerTuple } from "./peer_repo.ts";

/** A peer as the API shows it: no private or preshared key. */
export interface PeerView {
  id: string;
  interface_id: string;
  interface_name: string;
  name: string;
  public_key: string;
  address: string;
  /** Effective client-side AllowedIPs. */
  allowed_ips: string;
  /** True when allowed_ips was set for this peer rather than taken from the profile. */
  allowed_ips_custom: boolean;
  dns: string;
  keepalive: number | null;
  mtu: number | null;
  profile: string;
  status: PeerStatus;
  /** False for client-supplied keys and revoked peers: no config can be downloaded. */
  has_private_key: boolean;
  has_preshared_key: boolean;
  created_at: string;
  updated_at: string;
}

/** Live telemetry of one peer; null in a listing when the host layer is off. */
export interface PeerTelemetry {
  /** The peer is configured on its interface on the host. */
  on_host: boolean;
  endpoint: string | null;
  latest_handshake: string | null;
  rx_bytes: number;
  tx_bytes: number;
  /** Handshake within the last 180 s. */
  connected: boolean;
}

export interface PeerWithTelemetry extends PeerView {
  telemetry: PeerTelemetry | null;
  /** Expiry, quota and usage (docs/peer_lifecycle.md); null for a peer without limits. */
  limits: PeerLimitsBrief | null;
}

/** The view of a stored peer. */
export function peerView(r: ListedPeer): PeerView {
  return {
    id: r.id,
    interface_id: r.interface_id,
    interface_name: r.interface_name,
    name: r.name,
    public_key: r.public_key,
    address: r.address,
    allowed_ips: r.allowed_ips ?? effectiveAllowedIps(null, r.profile, r.interface_address),
    allowed_ips_custom: r.allowed_ips !== null,
    dns: r.dns,
    keepalive: r.keepalive,
    mtu: r.mtu,
    profile: r.profile,
    status: r.status,
    has_private_key: r.has_private_key,
    has_preshared_key: r.has_preshared_key,
    created_at: fastIso(r.created_at),
    updated_at: fastIso(r.updated_at),
  };
}

/** What a listing needs of a peer's interface, computed once per interface. */
export interface ListInterface {
  name: string;
  /** Client-side AllowedIPs of the split-tunnel profile: the interface's block. */
  split: string;
  live: LiveInterface | undefined;
}

const FULL_TUNNEL = effectiveAllowedIps(null, "full-tunnel", "0.0.0.0/0");

/** `peerView()` of a listing tuple, telemetry not yet merged. */
export function viewOfTuple(a: PeerTuple, iface: ListInterface): PeerWithTelemetry {
  const allowed = a[5];
  const profile = a[9];
  return {
    id: a[0],
    interface_id: a[1],
    interface_name: iface.name,
    name: a[2],
    public_key: a[3],
    address: a[4],
    allowed_ips: allowed ?? (profile === "split-tunnel" ? iface.split : FULL_TUNNEL),
    allowed_ips_custom: allowed !== null,
    dns: a[6],
    keepalive: a[7],
    mtu: a[8],
    profile,
    status: a[10],
    has_private_key: a[11] === 1,
    has_preshared_key: a[12] === 1,
    created_at: fastIso(a[13]),
    updated_at: fastIso(a[14]),
    telemetry: null,
    limits: null,
  };
}

const OFF_HOST: Readonly<PeerTelemetry> = Object.freeze({
  on_host: false,
  endpoint: null,
  latest_handshake: null,
  rx_bytes: 0,
  tx_bytes: 0,
  connected: false,
});

/** Telemetry of the peer holding `publicKey` on a live interface (`nowS` in Unix seconds). */
export function telemetryOf(
  iface: LiveInterface | undefined,
  publicKey: string,
  nowS: number,
): PeerTelemetry {
  const lp = iface?.peers.get(publicKey);
  if (!lp) return { ...OFF_HOST };
  return {
    on_host: true,
    endpoint: lp.endpoint,
    latest_handshake: lp.latestHandshake ? fastIso(lp.latestHandshake * 1000) : null,
    rx_bytes: lp.rxBytes,
    tx_bytes: lp.txBytes,
    connected: lp.latestHandshake > 0 && nowS - lp.latestHandshake < CONNECTED_WINDOW_SECONDS,
  };
}
