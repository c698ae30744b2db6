/**
 * A host read (LiveState) in which one peer has moved `rx`/`tx` bytes: what
 * the peer-limits tests feed the enforcer's accounting by hand instead of a
 * real device's counters (lib/tunnel/lifecycle/enforce.ts).
 */
import type { LiveState } from "../../lib/host/driver.ts";

export function counterRead(publicKey: string, rx: number, tx = 0, ifName = "wg9"): LiveState {
  const peer = {
    publicKey,
    presharedKey: null,
    endpoint: null,
    allowedIps: [],
    latestHandshake: 0,
    rxBytes: rx,
    txBytes: tx,
    keepalive: null,
  };
  return {
    readAt: 0,
    interfaces: new Map([[ifName, {
      name: ifName,
      publicKey: null,
      listenPort: null,
      mtu: null,
      up: true,
      addressesV4: [],
      rxBytes: 0,
      txBytes: 0,
      peers: new Map([[publicKey, peer]]),
    }]]),
  };
}
