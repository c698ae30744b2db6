/**
 * Parsers for the two reads of a pass: `wg show all dump` (keys, ports,
 * peers, telemetry) and `ip -j -s addr show` (link state, MTU, addresses,
 * counters). The dump carries private keys; they are dropped here and never
 * leave this function.
 */
import type { LiveInterface, LivePeer, LiveState } from "./driver.ts";

const NONE = "(none)";

interface IpLink {
  ifname: string;
  flags?: string[];
  mtu?: number;
  addr_info?: { family: string; local: string; prefixlen: number }[];
  stats64?: { rx?: { bytes?: number }; tx?: { bytes?: number } };
}

/** Builds the live state from the two outputs; only interfaces present in both are kept. */
export function wgDump(dump: string, ipJson: string, readAt: number): LiveState {
  const links = new Map<string, IpLink>();
  for (const l of (ipJson.trim() ? JSON.parse(ipJson) : []) as IpLink[]) links.set(l.ifname, l);
  const interfaces = new Map<string, LiveInterface>();
  for (const line of dump.split("\n")) {
    if (!line) continue;
    const f = line.split("\t");
    const ifName = f[0];
    if (f.length === 5) {
      // `wg show all` also lists userspace devices of other namespaces (their
      // sockets share /var/run/wireguard); the ip read tells which are ours.
      const link = links.get(ifName);
      if (!link) continue;
      const port = Number(f[3]);
      interfaces.set(ifName, {
        name: ifName,
        publicKey: f[2] === NONE ? null : f[2],
        listenPort: port > 0 ? port : null,
        mtu: link.mtu ?? null,
        up: (link.flags ?? []).includes("UP"),
        addressesV4: (link.addr_info ?? []).filter((a) => a.family === "inet").map((a) =>
          `${a.local}/${a.prefixlen}`
        ),
        rxBytes: link.stats64?.rx?.bytes ?? 0,
        txBytes: link.stats64?.tx?.bytes ?? 0,
        peers: new Map(),
      });
    } else if (f.length === 9) {
      const iface = interfaces.get(ifName);
      if (!iface) continue;
      const peer: LivePeer = {
        publicKey: f[1],
        presharedKey: f[2] === NONE ? null : f[2],
        endpoint: f[3] === NONE ? null : f[3],
        allowedIps: f[4] === NONE ? [] : f[4].split(","),
        latestHandshake: Number(f[5]) || 0,
        rxBytes: Number(f[6]) || 0,
        txBytes: Number(f[7]) || 0,
        keepalive: f[8] === "off" ? null : Number(f[8]) || null,
      };
      iface.peers.set(peer.publicKey, peer);
    }
  }
  return { readAt, interfaces };
}
