/**
 * What a WireGuard interface in a namespace looks like, read straight from
 * `wg show <name> dump` and `ip -j addr show dev <name>` and parsed here, not
 * by the host driver: tests compare it with what they asked the driver for.
 */
import type { Netns } from "./netns.ts";

export interface HostPeer {
  presharedKey: string | null;
  /** Sorted. */
  allowedIps: string[];
  keepalive: number | null;
}

export interface HostInterface {
  /** As wg derives it from the private key it holds (which it stores clamped). */
  publicKey: string;
  listenPort: number;
  mtu: number;
  /** The administrative state: UP among the link's flags. */
  up: boolean;
  /** IPv4 addresses with prefix, sorted. */
  addressesV4: string[];
  /** By public key. */
  peers: Record<string, HostPeer>;
}

/** The interface `name` in `ns`, or null when the namespace has no such link. */
export async function hostInterface(ns: Netns, name: string): Promise<HostInterface | null> {
  const ip = await ns.exec("ip", ["-j", "addr", "show", "dev", name], { allowFail: true });
  if (ip.code !== 0) return null;
  const [link] = JSON.parse(ip.stdout) as {
    mtu: number;
    flags: string[];
    addr_info?: { family: string; local: string; prefixlen: number }[];
  }[];
  const wg = await ns.exec("wg", ["show", name, "dump"]);
  const [head, ...rows] = wg.stdout.trim().split("\n").map((l) => l.split("\t"));
  const peers: Record<string, HostPeer> = {};
  for (const [publicKey, psk, _endpoint, allowed, , , , keepalive] of rows) {
    peers[publicKey] = {
      presharedKey: psk === "(none)" ? null : psk,
      allowedIps: allowed === "(none)" ? [] : allowed.split(",").sort(),
      keepalive: keepalive === "off" ? null : Number(keepalive),
    };
  }
  return {
    publicKey: head[1],
    listenPort: Number(head[2]),
    mtu: link.mtu,
    up: link.flags.includes("UP"),
    addressesV4: (link.addr_info ?? []).filter((a) => a.family === "inet")
      .map((a) => `${a.local}/${a.prefixlen}`).sort(),
    peers,
  };
}
