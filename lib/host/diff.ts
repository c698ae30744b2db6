/**
 * The one comparison of desired and live state. The linux driver uses it to
 * decide which commands to run and the reconcile planner to report drift, so
 * "what apply would change" and "what the plan shows" cannot disagree.
 */
import type { DesiredInterface, DesiredPeer, LiveInterface, LivePeer } from "./driver.ts";

export type DriftKind =
  | "interface_missing"
  | "public_key"
  | "listen_port"
  | "mtu"
  | "address"
  | "link_state"
  | "peer_missing"
  | "peer_unexpected"
  | "peer_field";

/** One difference; secret values are never put in `desired`/`live`. */
export interface Drift {
  kind: DriftKind;
  interface: string;
  /** For peer drift. */
  publicKey?: string;
  field?: string;
  desired: string | number | boolean | null;
  live: string | number | boolean | null;
}

export interface InterfaceDiff {
  drift: Drift[];
  /** Peers to add or rewrite (complete desired values). */
  upsert: DesiredPeer[];
  /** Public keys to remove. */
  remove: string[];
}

const REDACTED = "[redacted]";

function sameList(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const sa = [...a].sort(), sb = [...b].sort();
  return sa.every((v, i) => v === sb[i]);
}

/** Field-level differences of one peer (empty when equal). */
export function diffPeer(
  want: DesiredPeer,
  have: LivePeer,
): { field: string; desired: Drift["desired"]; live: Drift["live"] }[] {
  const out: { field: string; desired: Drift["desired"]; live: Drift["live"] }[] = [];
  if (!sameList(want.allowedIps, have.allowedIps)) {
    out.push({
      field: "allowed_ips",
      desired: want.allowedIps.join(","),
      live: have.allowedIps.join(","),
    });
  }
  if ((want.presharedKey ?? null) !== (have.presharedKey ?? null)) {
    out.push({
      field: "preshared_key",
      desired: want.presharedKey ? REDACTED : null,
      live: have.presharedKey ? REDACTED : null,
    });
  }
  if ((want.keepalive || null) !== (have.keepalive || null)) {
    out.push({ field: "keepalive", desired: want.keepalive || null, live: have.keepalive || null });
  }
  if (endpointDrifts(want.endpoint ?? null, have.endpoint)) {
    out.push({ field: "endpoint", desired: want.endpoint ?? null, live: have.endpoint });
  }
  return out;
}

const IPV4_ENDPOINT = /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/;

/**
 * Only a dialled peer (an upstream's provider) has a desired endpoint; a
 * client's live endpoint is wherever it roamed and is never drift. The host
 * shows a resolved address, so a host name (or an IPv6 literal, which `wg`
 * prints in its own spelling) drifts only when no endpoint is set at all.
 */
function endpointDrifts(want: string | null, have: string | null): boolean {
  if (!want) return false;
  if (!have) return true;
  return IPV4_ENDPOINT.test(want) && want !== have;
}

/** Differences of the device itself: key, port, MTU, address and link state. */
function diffDevice(want: DesiredInterface, live: LiveInterface): Drift[] {
  const name = want.name;
  const drift: Drift[] = [];
  if (live.publicKey !== want.publicKey) {
    drift.push({
      kind: "public_key",
      interface: name,
      desired: want.publicKey,
      live: live.publicKey,
    });
  }
  if (want.listenPort !== null && live.listenPort !== want.listenPort) {
    drift.push({
      kind: "listen_port",
      interface: name,
      desired: want.listenPort,
      live: live.listenPort,
    });
  }
  if (live.mtu !== want.mtu) {
    drift.push({ kind: "mtu", interface: name, desired: want.mtu, live: live.mtu });
  }
  if (!sameList([want.addressV4], live.addressesV4)) {
    drift.push({
      kind: "address",
      interface: name,
      desired: want.addressV4,
      live: live.addressesV4.join(",") || null,
    });
  }
  if (live.up !== want.up) {
    drift.push({
      kind: "link_state",
      interface: name,
      desired: want.up ? "up" : "down",
      live: live.up ? "up" : "down",
    });
  }
  return drift;
}

/** Compares one interface; `live` null means the device does not exist. */
export function diffInterface(
  want: DesiredInterface,
  live: LiveInterface | null | undefined,
): InterfaceDiff {
  const name = want.name;
  if (!live) {
    return {
      drift: [{ kind: "interface_missing", interface: name, desired: name, live: null }],
      upsert: want.peers,
      remove: [],
    };
  }
  const drift = diffDevice(want, live);
  const upsert: DesiredPeer[] = [];
  const wanted = new Set<string>();
  for (const p of want.peers) {
    wanted.add(p.publicKey);
    const have = live.peers.get(p.publicKey);
    if (!have) {
      drift.push({
        kind: "peer_missing",
        interface: name,
        publicKey: p.publicKey,
        desired: "present",
        live: null,
      });
      upsert.push(p);
      continue;
    }
    const fields = diffPeer(p, have);
    if (fields.length) upsert.push(p);
    for (const f of fields) {
      drift.push({ kind: "peer_field", interface: name, publicKey: p.publicKey, ...f });
    }
  }
  const remove: string[] = [];
  for (const pk of live.peers.keys()) {
    if (wanted.has(pk)) continue;
    remove.push(pk);
    drift.push({
      kind: "peer_unexpected",
      interface: name,
      publicKey: pk,
      desired: null,
      live: "present",
    });
  }
  return { drift, upsert, remove };
}
