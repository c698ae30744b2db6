/**
 * The values of an upstream configuration (docs/tunnels.md, "Upstream
 * import"). A value that is not of its key's form (an address, a number) is a
 * ValidationError (400); a well-formed configuration Palisade cannot use (no
 * [Peer] or more than one, a key that is not the base64 of 32 bytes, a port
 * or MTU out of range, no IPv4 address) is an UnprocessableError (422). Both
 * are on `config` and name the line and key; none quotes a value.
 */
import { UnprocessableError, ValidationError } from "../errors.ts";
import { hostKind, isIpv6 } from "../net/host.ts";
import { formatIpv4, networkCidr, parseCidr } from "./ipv4.ts";
import { isWireGuardKey } from "./keys.ts";
import {
  type ConfigEntry,
  type ConfigSection,
  type ConfigText,
  parseConfigText,
  splitList,
} from "./upstream_parse.ts";
import { KEEPALIVE_MAX, MTU_MAX, MTU_MIN, PORT_MAX, PORT_MIN } from "./validate.ts";

/** A key import does not apply, with why. */
export interface IgnoredKey {
  line: number;
  section: "Interface" | "Peer";
  key: string;
  reason: string;
}

/** A parsed configuration; `privateKey` and `peer.presharedKey` are secrets. */
export interface UpstreamConfig {
  privateKey: string;
  /** Every IPv4 address with prefix ("/32" added when absent), in order. */
  addressesV4: string[];
  addressesV6: string[];
  dns: string[];
  mtu: number | null;
  peer: {
    publicKey: string;
    presharedKey: string | null;
    endpoint: string;
    allowedIps: string[];
    keepalive: number | null;
  };
  ignored: IgnoredKey[];
}

const at = (e: { line: number; key: string }) => `Line ${e.line}: ${e.key}`;

function malformed(e: ConfigEntry, what: string): ValidationError {
  return new ValidationError(`${at(e)} is not ${what}`, "config");
}

function unusable(message: string): UnprocessableError {
  return new UnprocessableError(message, "config");
}

const one = (s: ConfigSection, key: string) => s.entries.get(key)?.[0];
const all = (s: ConfigSection, key: string) => s.entries.get(key) ?? [];

function required(s: ConfigSection, section: string, key: string): ConfigEntry {
  const e = one(s, key);
  if (!e) throw unusable(`[${section}] on line ${s.line} has no ${key}`);
  return e;
}

function key(e: ConfigEntry): string {
  if (!isWireGuardKey(e.value)) throw unusable(`${at(e)} is not the base64 of 32 bytes`);
  return e.value;
}

function int(e: ConfigEntry, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(e.value)) throw malformed(e, "a whole number");
  const n = Number(e.value);
  if (n < min || n > max) throw unusable(`${at(e)} ${n} is outside ${min}-${max}`);
  return n;
}

/** An IPv4 or IPv6 block; IPv4 without a prefix is a /32, IPv6 without one a /128. */
function cidrOf(e: ConfigEntry, item: string): { v4: boolean; text: string } {
  if (item.includes(":")) {
    const [addr, prefix = "128", extra] = item.split("/");
    if (extra !== undefined || !isIpv6(addr) || !/^\d{1,3}$/.test(prefix) || +prefix > 128) {
      throw malformed(e, "a list of IPv4 or IPv6 addresses with prefix");
    }
    return { v4: false, text: `${new URL(`http://[${addr}]/`).hostname.slice(1, -1)}/${+prefix}` };
  }
  const c = parseCidr(item.includes("/") ? item : `${item}/32`);
  if (!c) throw malformed(e, "a list of IPv4 or IPv6 addresses with prefix");
  return { v4: true, text: `${formatIpv4(c.address)}/${c.prefix}` };
}

/** host:port or [IPv6]:port, with a host name, IPv4 or IPv6 host. */
function endpoint(e: ConfigEntry): string {
  const m = /^(?:\[([^\]]+)\]|([^:\[\]]+)):(\d{1,5})$/.exec(e.value);
  const host = m?.[1] ?? m?.[2];
  const kind = host === undefined ? null : hostKind(host);
  if (!m || !kind || (m[1] !== undefined) !== (kind === "ipv6")) {
    throw malformed(e, "host:port or [IPv6]:port");
  }
  const port = Number(m[3]);
  if (port < PORT_MIN || port > PORT_MAX) {
    throw unusable(`${at(e)} port ${port} is outside ${PORT_MIN}-${PORT_MAX}`);
  }
  return e.value;
}

const IGNORED: Record<string, string> = {
  ListenPort: "upstream interfaces take a dynamic listen port",
  Table: "Palisade installs no routes for AllowedIPs; add routes or rules instead",
  FwMark: "Palisade does not mark the tunnel's packets",
  PreUp: "commands in a configuration are never executed",
  PostUp: "commands in a configuration are never executed",
  PreDown: "commands in a configuration are never executed",
  PostDown: "commands in a configuration are never executed",
  SaveConfig: "Palisade's store is the configuration",
  DNS: "Palisade does not change the host's resolver; the servers are shown only",
};

function ignoredKeys(s: ConfigSection): IgnoredKey[] {
  const out: IgnoredKey[] = [];
  for (const [k, entries] of s.entries) {
    const reason = IGNORED[k];
    if (!reason) continue;
    for (const e of entries) out.push({ line: e.line, section: "Interface", key: k, reason });
  }
  return out;
}

function addresses(s: ConfigSection, ignored: IgnoredKey[]) {
  const v4: string[] = [], v6: string[] = [];
  for (const e of all(s, "Address")) {
    for (const item of splitList(e.value)) {
      const c = cidrOf(e, item);
      (c.v4 ? v4 : v6).push(c.text);
      if (!c.v4 || v4.length > 1) {
        const reason = c.v4
          ? "only the first IPv4 address is the interface's address"
          : "interfaces are IPv4 only: IPv6 addresses are not applied";
        ignored.push({ line: e.line, section: "Interface", key: "Address", reason });
      }
    }
  }
  if (!v4.length) throw unusable(`[Interface] on line ${s.line} has no IPv4 Address`);
  return { v4, v6 };
}

function peerOf(s: ConfigSection): UpstreamConfig["peer"] {
  const allowed: string[] = [];
  for (const e of all(s, "AllowedIPs")) {
    for (const item of splitList(e.value)) {
      const c = cidrOf(e, item);
      // wg stores a block by its network address; so does Palisade, or every read would drift.
      allowed.push(c.v4 ? networkCidr(parseCidr(c.text)!) : c.text);
    }
  }
  if (!allowed.some((a) => !a.includes(":"))) {
    throw unusable(`[Peer] on line ${s.line} has no IPv4 AllowedIPs`);
  }
  const psk = one(s, "PresharedKey");
  const ka = one(s, "PersistentKeepalive");
  return {
    publicKey: key(required(s, "Peer", "PublicKey")),
    presharedKey: psk ? key(psk) : null,
    endpoint: endpoint(required(s, "Peer", "Endpoint")),
    allowedIps: [...new Set(allowed)],
    keepalive: !ka || ka.value === "off" ? null : int(ka, 0, KEEPALIVE_MAX) || null,
  };
}

function check(text: ConfigText): UpstreamConfig {
  const s = text.iface;
  if (!s) throw unusable("The configuration has no [Interface] section");
  if (!text.peers.length) throw unusable("The configuration has no [Peer] section");
  if (text.peers.length > 1) {
    throw unusable(
      `Line ${text.peers[1].line}: a second [Peer]; an upstream has exactly one provider peer`,
    );
  }
  const privateKey = key(required(s, "Interface", "PrivateKey"));
  const ignored = ignoredKeys(s);
  const { v4, v6 } = addresses(s, ignored);
  for (const e of all(s, "ListenPort")) int(e, PORT_MIN, PORT_MAX);
  const mtu = one(s, "MTU");
  const peer = peerOf(text.peers[0]);
  return {
    privateKey,
    addressesV4: v4,
    addressesV6: v6,
    dns: all(s, "DNS").flatMap((e) => splitList(e.value)),
    mtu: mtu ? int(mtu, MTU_MIN, MTU_MAX) : null,
    peer,
    ignored: ignored.sort((a, b) => a.line - b.line),
  };
}

/** Parses and checks a configuration text; 400 or 422 on `config` naming the line and key. */
export function parseUpstreamConfig(text: string): UpstreamConfig {
  return check(parseConfigText(text));
}
