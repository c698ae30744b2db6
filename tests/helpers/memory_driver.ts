/**
 * An active host driver that keeps the "host" in memory: a sync makes the
 * live interface exactly what was desired, a read returns a copy. A test
 * changes `live` by hand to make drift behind Palisade's back (a peer
 * removed, a stray peer, another MTU), as `wg set` and `ip link` would on a
 * real host, without root.
 */
import type {
  DesiredInterface,
  DesiredPeer,
  LiveInterface,
  LivePeer,
  LiveState,
  SyncResult,
} from "../../lib/host/driver.ts";
import { RecordingDriver } from "./recording_driver.ts";

function livePeer(p: DesiredPeer): LivePeer {
  return {
    publicKey: p.publicKey,
    presharedKey: p.presharedKey,
    endpoint: p.endpoint ?? null,
    allowedIps: [...p.allowedIps],
    latestHandshake: 0,
    rxBytes: 0,
    txBytes: 0,
    keepalive: p.keepalive,
  };
}

function copy(i: LiveInterface): LiveInterface {
  const peers = new Map([...i.peers].map(([k, p]) => [k, { ...p, allowedIps: [...p.allowedIps] }]));
  return { ...i, addressesV4: [...i.addressesV4], peers };
}

export class MemoryDriver extends RecordingDriver {
  /** The host's WireGuard devices, by name. */
  readonly live = new Map<string, LiveInterface>();

  constructor(log: string[] = []) {
    super(log);
  }

  override read(): Promise<LiveState> {
    const interfaces = new Map([...this.live].map(([n, i]) => [n, copy(i)]));
    return Promise.resolve({ readAt: Date.now(), interfaces });
  }

  override async sync(desired: DesiredInterface): Promise<SyncResult> {
    const result = await super.sync(desired);
    this.live.set(desired.name, {
      name: desired.name,
      publicKey: desired.publicKey,
      listenPort: desired.listenPort,
      mtu: desired.mtu,
      up: desired.up,
      addressesV4: [desired.addressV4],
      rxBytes: 0,
      txBytes: 0,
      peers: new Map(desired.peers.map((p) => [p.publicKey, livePeer(p)])),
    });
    return result;
  }

  override async setPeers(ifName: string, upsert: DesiredPeer[], remove: string[]) {
    await super.setPeers(ifName, upsert, remove);
    const iface = this.live.get(ifName);
    if (!iface) return;
    for (const k of remove) iface.peers.delete(k);
    for (const p of upsert) iface.peers.set(p.publicKey, livePeer(p));
  }

  override async setLink(ifName: string, up: boolean) {
    await super.setLink(ifName, up);
    const iface = this.live.get(ifName);
    if (iface) iface.up = up;
  }

  override async remove(ifName: string) {
    await super.remove(ifName);
    this.live.delete(ifName);
  }
}
