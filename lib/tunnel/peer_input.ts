/**
 * A peer create or update request checked field by field: every value is
 * validated once here, before any transaction opens, and keys are made.
 */
import { ValidationError } from "../errors.ts";
import { isWireGuardKey, keys, presharedKey } from "./keys.ts";
import type { PeerRow, PeerStatus } from "./peer_repo.ts";
import {
  checkAllowedIps,
  checkDns,
  checkKeepalive,
  checkMtu,
  checkPeerName,
  checkProfile,
  type RoutingProfile,
} from "./validate.ts";

export interface PeerCreate {
  name: string;
  /** Routing profile: "full-tunnel" (default) or "split-tunnel". */
  profile?: RoutingProfile;
  mtu?: number | null;
  /** A free host address of the interface's block; allocated when absent. */
  address?: string;
  /** The client's own public key; no private key is stored then. */
  public_key?: string;
  /** Generate a preshared key (default true). */
  preshared_key?: boolean;
  /** Client-side AllowedIPs, comma-separated; the profile's default when absent. */
  allowed_ips?: string | null;
  dns?: string;
  keepalive?: number | null;
  /** Start disabled when false. */
  enabled?: boolean;
}

export interface PeerUpdate {
  name?: string;
  profile?: RoutingProfile;
  mtu?: number | null;
  address?: string;
  /** true keeps or generates a preshared key, false removes it. */
  preshared_key?: boolean;
  allowed_ips?: string | null;
  dns?: string;
  keepalive?: number | null;
}

/** A checked create request with its keys; the address is settled in the transaction. */
export interface PreparedPeer {
  id: string;
  name: string;
  profile: RoutingProfile;
  mtu: number | null;
  /** As requested; checked against the interface's block when stored. */
  address: string | undefined;
  public_key: string;
  /** Null when the client supplied its public key. */
  private_key: string | null;
  preshared_key: string | null;
  allowed_ips: string | null;
  dns: string;
  keepalive: number | null;
  status: PeerStatus;
}

/** Checks a create request and generates the keys it needs. */
export async function preparePeer(input: PeerCreate, what: string): Promise<PreparedPeer> {
  const name = checkPeerName(input?.name, what);
  const profile = input.profile === undefined ? "full-tunnel" : checkProfile(input.profile, what);
  let pub: string;
  let priv: string | null = null;
  if (input.public_key !== undefined) {
    if (typeof input.public_key !== "string" || !isWireGuardKey(input.public_key)) {
      throw new ValidationError(`${what}: public_key is not a WireGuard key`, "public_key");
    }
    pub = input.public_key;
  } else {
    const pair = await keys();
    pub = pair.publicKey;
    priv = pair.privateKey;
  }
  return {
    id: crypto.randomUUID(),
    name,
    profile,
    mtu: input.mtu == null ? null : checkMtu(input.mtu, what),
    address: input.address,
    public_key: pub,
    private_key: priv,
    preshared_key: input.preshared_key === false ? null : presharedKey(),
    allowed_ips: input.allowed_ips == null ? null : checkAllowedIps(input.allowed_ips, what),
    dns: input.dns === undefined ? "" : checkDns(input.dns, what),
    keepalive: input.keepalive == null ? null : checkKeepalive(input.keepalive, what),
    status: input.enabled === false ? "disabled" : "enabled",
  };
}

/**
 * The peer after an update of everything but its address (which needs the
 * interface's peers), and the names of the fields that changed.
 */
export function peerChanges(
  cur: PeerRow,
  input: PeerUpdate,
  what: string,
): { next: PeerRow; changed: string[] } {
  const next = { ...cur };
  const changed: string[] = [];
  if (input.name !== undefined && input.name !== cur.name) {
    next.name = checkPeerName(input.name, what);
    changed.push("name");
  }
  if (input.profile !== undefined && input.profile !== cur.profile) {
    next.profile = checkProfile(input.profile, what);
    changed.push("profile");
  }
  if (input.mtu !== undefined && input.mtu !== cur.mtu) {
    next.mtu = input.mtu === null ? null : checkMtu(input.mtu, what);
    changed.push("mtu");
  }
  if (input.keepalive !== undefined && input.keepalive !== cur.keepalive) {
    next.keepalive = input.keepalive === null ? null : checkKeepalive(input.keepalive, what);
    changed.push("keepalive");
  }
  if (input.allowed_ips !== undefined) {
    const v = input.allowed_ips === null ? null : checkAllowedIps(input.allowed_ips, what);
    if (v !== cur.allowed_ips) {
      next.allowed_ips = v;
      changed.push("allowed_ips");
    }
  }
  if (input.dns !== undefined) {
    const v = checkDns(input.dns, what);
    if (v !== cur.dns) {
      next.dns = v;
      changed.push("dns");
    }
  }
  if (input.preshared_key === false && cur.preshared_key !== null) {
    next.preshared_key = null;
    changed.push("preshared_key");
  } else if (input.preshared_key === true && cur.preshared_key === null) {
    next.preshared_key = presharedKey();
    changed.push("preshared_key");
  }
  return { next, changed };
}
