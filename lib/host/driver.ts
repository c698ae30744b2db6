/**
 * The host driver contract: what Palisade needs from the machine's network
 * stack to run WireGuard interfaces. Two drivers implement it: `linux`
 * (iproute2, wireguard-tools, kernel module or wireguard-go) and `none`
 * (desired state only). Both pass `driver_contract_test.ts`.
 */
import type { NetDriver } from "./net_state.ts";

/** A peer as the server side of the tunnel needs it. */
export interface DesiredPeer {
  publicKey: string;
  presharedKey: string | null;
  /** Server-side AllowedIPs, e.g. ["10.8.0.2/32"]. */
  allowedIps: string[];
  /** Server-side persistent keepalive in seconds; null for off. */
  keepalive: number | null;
  /**
   * Where the server dials the peer (host:port or [IPv6]:port): only an
   * upstream's provider peer has one. Absent or null: the peer roams and
   * WireGuard learns its endpoint from its packets.
   */
  endpoint?: string | null;
}

/** One interface as the store says it should be. */
export interface DesiredInterface {
  name: string;
  privateKey: string;
  publicKey: string;
  listenPort: number | null;
  /** Interface address with prefix, e.g. 10.8.0.1/24. */
  addressV4: string;
  mtu: number;
  /** Link state: false for a disabled interface, which keeps its device and peers. */
  up: boolean;
  /** Only peers that should be on the host (enabled ones). */
  peers: DesiredPeer[];
}

/** A peer as read from the host, with telemetry. */
export interface LivePeer {
  publicKey: string;
  presharedKey: string | null;
  endpoint: string | null;
  allowedIps: string[];
  /** Unix seconds; 0 when no handshake happened yet. */
  latestHandshake: number;
  rxBytes: number;
  txBytes: number;
  keepalive: number | null;
}

/** One WireGuard interface as read from the host. */
export interface LiveInterface {
  name: string;
  publicKey: string | null;
  listenPort: number | null;
  mtu: number | null;
  up: boolean;
  /** IPv4 addresses with prefix, e.g. ["10.8.0.1/24"]. */
  addressesV4: string[];
  rxBytes: number;
  txBytes: number;
  /** Indexed by public key. */
  peers: Map<string, LivePeer>;
}

/** One read of the host: every WireGuard interface, indexed by name. */
export interface LiveState {
  /** Unix milliseconds of the read. */
  readAt: number;
  interfaces: Map<string, LiveInterface>;
}

export interface HostInfo {
  driver: "linux" | "none";
  /** False for the none driver: nothing is applied to or read from the host. */
  active: boolean;
  netns: string | null;
  /** How WireGuard devices are made; null until known or when inactive. */
  wireguard: "kernel" | "userspace" | null;
  tools: Record<string, boolean>;
  detail: string;
}

/** What a sync changed, for logs, audit and tests. */
export interface SyncResult {
  created: boolean;
  /** Interface-level fields that were set (e.g. "listen_port", "mtu", "link"). */
  interfaceFields: string[];
  peersSet: number;
  peersRemoved: number;
}

/** The operations every driver implements (routes and firewall: net_state.ts). */
export interface HostDriver extends NetDriver {
  readonly name: "linux" | "none";
  readonly active: boolean;
  /** Driver, tools and mode, for diagnostics. */
  info(): Promise<HostInfo>;
  /** Reads every WireGuard interface once; null when the driver is inactive. */
  read(): Promise<LiveState | null>;
  /**
   * Converges one interface to `desired`, creating it when missing and touching
   * only what differs; `live` saves a read when the caller has one.
   */
  sync(desired: DesiredInterface, live?: LiveInterface | null): Promise<SyncResult>;
  /** Sets exactly these peers and removes exactly these public keys; nothing else is touched. */
  setPeers(ifName: string, upsert: DesiredPeer[], remove: string[]): Promise<void>;
  /** Link up or down. */
  setLink(ifName: string, up: boolean): Promise<void>;
  /** Deletes the device (and stops its userspace process); absent is fine. */
  remove(ifName: string): Promise<void>;
}

/** Peers with no handshake for this long are shown as not connected (WireGuard's REJECT_AFTER_TIME). */
export const CONNECTED_WINDOW_SECONDS = 180;
